#!/usr/bin/env python3
"""Availability check for Apple deployment targets, runnable on Linux.

The library deploys to the Apple releases that `Package.swift` declares in `platforms:`
(`.macOS(.v10_15)` style). Apple platforms cannot be compiled on Linux, and the Linux
compiler ignores Apple availability, so this script looks for uses of APIs and language
features newer than those floors that no `@available` / `#available` guards.

    python3 Scripts/check-availability.py [--root DIR] [--interfaces DIR] [--dump-table]

It prints one line per problem,

    path:line: error: 'Atomic' needs macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2;
        add @available or #available (declared floor: macOS 10.15, iOS 13, ...)

(on one line), then `availability: N files checked, M problems`, and exits 1 when M > 0,
0 otherwise, 2 on a usage error (no Package.swift, no toolchain interfaces).

It is a careful heuristic, not a compiler. Its rules:

Floor
  * Read from the `platforms:` array of `<root>/Package.swift` (comments ignored). A
    platform the package does not list gets SwiftPM's default (macOS 10.13, iOS 12, tvOS
    12, watchOS 4, visionOS 1). No `platforms:` at all is itself a problem; the sources are
    then checked against macOS 10.15, iOS 13, tvOS 13, watchOS 6, visionOS 1 (the oldest
    releases with Swift concurrency) so that the report stays readable.
  * `AvailabilityMacro=Name X.Y:macOS ..., iOS ...` strings in Package.swift define extra
    availability macros, like the compiler's `-define-availability`.

API table (what is "newer")
  * Built from the toolchain's own textual interfaces:
    `$(dirname $(readlink -f $(which swift)))/../lib/swift/linux/*.swiftmodule/*.swiftinterface`
    (or the folder `swift -print-target-info` names; the public interfaces, not
    `.private.`): Swift, _Concurrency, Synchronization,
    _StringProcessing, RegexBuilder, Observation, Distributed, ... On Linux these keep the
    Apple `@available(macOS 15.0, iOS 18.0, ...)` attributes. `@available(SwiftStdlib
    5.7, *)` style macros are mapped to OS versions (_MACRO_TEXT below).
  * Entries: public types, typealiases, macros and free functions (by name), and members
    (by enclosing type, base name and first argument label). A member inherits the
    availability of its type or extension. Overloads keep the most permissive one.
  * `@backDeployed(before:)` does not raise a declaration's availability: such a
    declaration is available from its `@available` version, which in these interfaces is
    the deployment floor (macOS 10.15 ...).
  * Foundation, Dispatch and os ship no textual interface on Linux: a short curated list
    (CURATED below, versions from Apple's SDKs) covers the newer APIs of theirs most likely
    to appear in a futures library.

Matching uses (few false positives over completeness)
  * A type/typealias/macro name from the table, as an identifier not preceded by `.`
    (except after a module name: `Swift.Duration`), nor declared by the scanned sources
    (a type, protocol, associated type or generic parameter of the same name shadows it).
  * A free function from the table called as `name(` / `name {`, unless the sources
    declare a function of that name.
  * A member only with good evidence: `Type.member` with the type spelled out
    (`Task.sleep(for:`, `MainActor.assumeIsolated`), `Type(label:` for initializers, or
    `.member(label:` with a real argument label when every overload of that spelling in
    the interfaces is newer than the floor (`.sleep(for:`, `.firstMatch(of:`), and the
    sources declare no function of that base name. Unlabeled `.member(` / `.property`
    spellings are not matched (`now`, `value`, `sleep` are too common).
  * Names and members count only in files that import their module (Swift,
    _Concurrency, _StringProcessing are implicit; Foundation re-exports Dispatch).
  * Comments, string literals (also multi-line and raw strings; interpolations are
    code), `#/regex/#` literals, `import` lines and the arguments of built-in attributes
    (`@available(...)`, `@attached(...)`, ...) are ignored, as is code in `#if` branches
    that cannot be compiled for an Apple platform (`os(Linux)`, `canImport(Glibc)`, ...;
    unknown conditions keep every branch).

Guards (a brace-aware token scanner tracks nesting)
  * A use is guarded by the `@available(...)` of any enclosing declaration (type,
    extension, func, init, subscript, var/let, typealias, case; closures inherit), and by
    `if #available(...), here { here }`, `guard #available(...), here else {...}; here
    to the end of the enclosing block`, `if #unavailable(...) {...} else { here }`,
    `guard #unavailable(...) else { here }`. Nested guards combine (the newest wins).
  * It is enough when, for each of macOS, iOS, tvOS, watchOS and visionOS, the guard's
    version is >= the API's. A platform a guard does not name stays at the floor, except
    visionOS, which inherits from iOS like the compiler does (iOS 17 -> visionOS 1,
    iOS 18 -> visionOS 2). An API that does not name a platform places no requirement on
    it; for visionOS it again inherits from iOS (so visionOS 1 is fine for anything that
    needs iOS <= 17, and an API needing iOS 18 needs visionOS 2).
  * `@available(*, unavailable)` or `@available(macOS, unavailable)` guards every
    platform / that platform.

Language features with Apple runtime requirements (FeatureAvailability.def,
TypeCheckAvailability.cpp)
  (a) a generic struct/class/enum/actor with a parameter pack (`<each T>`): macOS 14,
      iOS 17, tvOS 17, watchOS 10. Parameter-pack functions are fine.
  (b) an `@isolated(any)` function type and (c) a typed-throws function type
      `() throws(E) -> T` (E other than `any Error` / `Never`): macOS 15, iOS 18, tvOS
      18, watchOS 11, visionOS 2, where their type metadata is needed, which the
      compiler checks for the generic arguments of a type and the target of a dynamic
      cast. Flagged: inside a generic argument list `<...>` (except `Optional<...>`, which
      the compiler exempts) or `[...]` array/dictionary sugar, at any depth and in any
      declaration or expression; as the target of an `as?`, `as!` or `is` cast; and,
      more strictly than the compiler, as the type of a stored property (a `let`/`var`
      in a type body or at file scope, optionals included; computed properties are fine)
      or of a typealias in a type body (it may witness an associated type). Fine: plain
      parameter and result types (`_ op: @isolated(any) () -> Void`), `func f()
      throws(E)` declarations, local variables, `as` coercions.
  (d) a parameterized existential `any P<T>` (macOS 13, iOS 16, tvOS 16, watchOS 9),
      P a protocol with primary associated types (from the interfaces or the sources),
      in the same generic-argument and cast positions (not stored properties).

Known limits: no type checking. A member reached through a variable without one of the
spellings above is missed (`clock.now`; the variable's declaration usually names the
type), and so are implicit `self` calls in extensions, implicit conversions (a function
erased to `Any`), types only inferred, and APIs of modules without a textual interface
beyond the CURATED list. A dependency that mirrors an Apple API (same labeled spelling)
is reported as if it were the Apple one. Bare `/regex/` literals are lexed as
operators; `#if` conditions are evaluated only for the common platform tests; a
declaration split across `#if` branches can confuse the brace matching.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")
PLATFORM_ALIASES = {
    "macOS": "macOS", "OSX": "macOS", "iOS": "iOS", "tvOS": "tvOS",
    "watchOS": "watchOS", "visionOS": "visionOS", "xrOS": "visionOS",
}
# Platforms that appear in availability attributes but are not deployment targets here.
OTHER_PLATFORMS = {
    "macCatalyst", "macOSApplicationExtension", "iOSApplicationExtension",
    "tvOSApplicationExtension", "watchOSApplicationExtension",
    "visionOSApplicationExtension", "macCatalystApplicationExtension", "DriverKit",
    "driverKit", "Linux", "linux", "Windows", "Android", "OpenBSD", "FreeBSD", "WASI",
    "Cygwin", "Haiku", "swift", "_PackageDescription", "anyAppleOS",
}

# SwiftStdlib availability macros (the Swift repository's utils/availability-macros.def).
_MACRO_TEXT = """
SwiftStdlib 5.0:macOS 10.14.4, iOS 12.2, watchOS 5.2, tvOS 12.2
SwiftStdlib 5.1:macOS 10.15, iOS 13.0, watchOS 6.0, tvOS 13.0
SwiftStdlib 5.2:macOS 10.15.4, iOS 13.4, watchOS 6.2, tvOS 13.4
SwiftStdlib 5.3:macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0
SwiftStdlib 5.4:macOS 11.3, iOS 14.5, watchOS 7.4, tvOS 14.5
SwiftStdlib 5.5:macOS 12.0, iOS 15.0, watchOS 8.0, tvOS 15.0
SwiftStdlib 5.6:macOS 12.3, iOS 15.4, watchOS 8.5, tvOS 15.4
SwiftStdlib 5.7:macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0
SwiftStdlib 5.8:macOS 13.3, iOS 16.4, watchOS 9.4, tvOS 16.4
SwiftStdlib 5.9:macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0
SwiftStdlib 5.10:macOS 14.4, iOS 17.4, watchOS 10.4, tvOS 17.4, visionOS 1.1
SwiftStdlib 6.0:macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0
SwiftStdlib 6.1:macOS 15.4, iOS 18.4, watchOS 11.4, tvOS 18.4, visionOS 2.4
SwiftStdlib 6.2:macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0
SwiftStdlib 6.3:macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4
SwiftStdlib 6.4:macOS 9999, iOS 9999, watchOS 9999, tvOS 9999, visionOS 9999
"""

# SwiftPM's default deployment targets (tools version 5.9 and later).
SWIFTPM_DEFAULT_FLOOR = {"macOS": (10, 13, 0), "iOS": (12, 0, 0), "tvOS": (12, 0, 0),
                         "watchOS": (4, 0, 0), "visionOS": (1, 0, 0)}
CONCURRENCY_FLOOR = {"macOS": (10, 15, 0), "iOS": (13, 0, 0), "tvOS": (13, 0, 0),
                     "watchOS": (6, 0, 0), "visionOS": (1, 0, 0)}

# Language features: (description, SwiftStdlib macro of FeatureAvailability.def).
FEATURE_PACK_TYPE = "SwiftStdlib 5.9"        # VariadicGenerics
FEATURE_ISOLATED_ANY = "SwiftStdlib 6.0"     # IsolatedAny
FEATURE_TYPED_THROWS = "SwiftStdlib 6.0"     # TypedThrows
FEATURE_PARAM_EXISTENTIAL = "SwiftStdlib 5.7"  # ParameterizedExistential

# Modules every Swift file sees, and re-exports.
IMPLICIT_MODULES = {"Swift", "_Concurrency", "_StringProcessing", "SwiftOnoneSupport"}
REEXPORTS = {
    "Foundation": {"Dispatch", "FoundationEssentials", "FoundationInternationalization",
                   "Darwin", "Glibc", "CoreFoundation"},
    "FoundationEssentials": {"Dispatch"},
    "RegexBuilder": {"_StringProcessing"},
    "OSLog": {"os"},
    "Combine": set(),
}

# Interfaces are missing for these modules on Linux. (kind, owner, name, first label,
# module, availability). kind: type | member | init | func. Versions from Apple's SDKs.
_V12 = "macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0"
_V13 = "macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0"
CURATED = [
    ("type", "", "AttributedString", None, "Foundation", _V12),
    ("member", "Date", "now", None, "Foundation", _V12),
    ("member", "URLSession", "data", "for", "Foundation", _V12),
    ("member", "URLSession", "data", "from", "Foundation", _V12),
    ("member", "URLSession", "upload", "for", "Foundation", _V12),
    ("member", "URLSession", "download", "for", "Foundation", _V12),
    ("member", "URLSession", "download", "from", "Foundation", _V12),
    ("member", "URLSession", "download", "resumeFrom", "Foundation", _V12),
    ("member", "URLSession", "bytes", "for", "Foundation", _V12),
    ("member", "URLSession", "bytes", "from", "Foundation", _V12),
    ("member", "NotificationCenter", "notifications", "named", "Foundation", _V12),
    ("member", "URL", "homeDirectory", None, "Foundation", _V13),
    ("member", "URL", "temporaryDirectory", None, "Foundation", _V13),
    ("member", "URL", "documentsDirectory", None, "Foundation", _V13),
    ("member", "URL", "cachesDirectory", None, "Foundation", _V13),
    ("member", "URL", "appending", "path", "Foundation", _V13),
    ("member", "URL", "appending", "component", "Foundation", _V13),
    ("member", "URL", "appending", "components", "Foundation", _V13),
    ("member", "URL", "path", "percentEncoded", "Foundation", _V13),
    ("init", "URL", "init", "filePath", "Foundation", _V13),
    ("type", "", "DispatchSerialQueue", None, "Dispatch",
     "macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0"),
    ("type", "", "OSAllocatedUnfairLock", None, "os", _V13),
    ("type", "", "Logger", None, "os", "macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0"),
]

TYPE_KEYWORDS = {"struct", "class", "enum", "actor", "protocol", "extension"}
MODIFIERS = {
    "public", "open", "internal", "private", "fileprivate", "package", "static", "final",
    "override", "mutating", "nonmutating", "nonisolated", "convenience", "required",
    "optional", "dynamic", "lazy", "indirect", "prefix", "postfix", "infix", "consuming",
    "borrowing", "__consuming", "unowned", "weak", "distributed", "isolated", "async",
    "unsafe",
}
STMT_KEYWORDS = {"if", "guard", "while", "for", "switch", "do", "repeat", "catch", "else",
                 "defer"}
ACCESSOR_KEYWORDS = {"get", "set", "didSet", "willSet", "_read", "_modify", "read",
                     "modify", "unsafeAddress", "unsafeMutableAddress"}
CONT_PREV_OPS = {"=", ".", ",", "(", "[", ":", "->", "+", "*", "/", "%", "&", "|", "^",
                 "~", "-", "<"}
CONT_PREV_IDS = {"as", "is", "where"}
CONT_NEXT_OPS = {".", "{", "->", "=", "+", "*", "/", "%", "&", "|", "^", ":", "?", ")",
                 "]", "}", "<", ">"}
CONT_NEXT_IDS = {"where", "else", "as", "is", "throws", "rethrows", "async", "catch"}

# #if evaluation for Apple targets.
NON_APPLE_OS = {"Linux", "Windows", "Android", "FreeBSD", "OpenBSD", "WASI", "Cygwin",
                "Haiku", "PS4", "none", "Wasm"}
APPLE_OS = {"macOS", "iOS", "tvOS", "watchOS", "visionOS", "xrOS", "OSX"}
NON_APPLE_MODULES = {"Glibc", "Musl", "WinSDK", "Android", "Bionic", "WASILibc", "ucrt",
                     "CRT"}
APPLE_MODULES = {"Darwin", "ObjectiveC", "Dispatch", "Foundation", "os"}


# ---------------------------------------------------------------------------------------
# Versions and availability

def parse_version(text):
    parts = [int(p) for p in text.split(".") if p.isdigit()]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts[:3])


def format_version(v):
    if v[2]:
        return "%d.%d.%d" % v
    if v[1]:
        return "%d.%d" % v[:2]
    return "%d" % v[0]


def vision_from_ios(v):
    """visionOS release contemporary with iOS release v (the compiler's remapping)."""
    if v[0] >= 26:
        return v
    if v[0] >= 17:
        return (v[0] - 16, v[1], v[2])
    return (1, 0, 0)


class Avail:
    """Per-platform introduced versions, plus platforms where the decl is unavailable."""

    __slots__ = ("versions", "unavailable")

    def __init__(self, versions=None, unavailable=()):
        self.versions = dict(versions or {})
        self.unavailable = set(unavailable)

    def is_empty(self):
        return not self.versions and not self.unavailable

    def effective(self, platform):
        """Version this availability requires on `platform` (None: no requirement)."""
        if platform in self.versions:
            return self.versions[platform]
        if platform == "visionOS" and "iOS" in self.versions:
            return vision_from_ios(self.versions["iOS"])
        return None

    def merged_into(self, outer):
        """This (inner) declaration's availability inside `outer`: the newest wins."""
        result = Avail(outer.versions, outer.unavailable | self.unavailable)
        for p in PLATFORMS:
            mine = self.effective(p)
            theirs = outer.effective(p)
            if mine is not None or theirs is not None:
                result.versions[p] = max(v for v in (mine, theirs) if v is not None)
        return result

    def describe(self, floor=None):
        parts = []
        for p in PLATFORMS:
            v = self.effective(p)
            if v is None:
                continue
            if p == "visionOS" and floor is not None and v <= floor.get(p, (1, 0, 0)):
                continue
            parts.append("%s %s" % (p, format_version(v)))
        return ", ".join(parts)


def avail_min(a, b):
    """The most permissive of two overloads' availabilities."""
    if a is None:
        return b
    result = Avail()
    for p in PLATFORMS:
        va, vb = a.effective(p), b.effective(p)
        if va is not None and vb is not None:
            result.versions[p] = min(va, vb)
    result.unavailable = a.unavailable & b.unavailable
    return result


def parse_macro_definitions(text):
    macros = {}
    for line in text.splitlines():
        line = line.strip()
        if ":" not in line:
            continue
        name, spec = line.split(":", 1)
        versions = {}
        for item in spec.split(","):
            item = item.strip().split()
            if len(item) == 2 and item[0] in PLATFORM_ALIASES:
                versions[PLATFORM_ALIASES[item[0]]] = parse_version(item[1])
        macros[" ".join(name.split())] = Avail(versions)
    return macros


MACROS = parse_macro_definitions(_MACRO_TEXT)


def split_args(text):
    """Split availability arguments at top-level commas."""
    args, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        args.append("".join(cur).strip())
    return args


def parse_availability_args(text, macros, conditional=False):
    """Parse the inside of @available(...) / #available(...). None: no platform info."""
    args = split_args(text)
    if not args:
        return None
    first = args[0].split()
    # @available(*, unavailable) / (*, deprecated ...)
    if first == ["*"]:
        if any(a.split(":")[0].strip() == "unavailable" for a in args[1:]):
            return Avail(unavailable=PLATFORMS)
        return None
    # Long form: @available(macOS, introduced: 13.0) / (iOS, unavailable)
    if len(first) == 1 and (first[0] in PLATFORM_ALIASES or first[0] in OTHER_PLATFORMS) \
            and not conditional and len(args) > 1 and all(":" in a or a.split()[0] in (
                "unavailable", "deprecated", "noasync") for a in args[1:]):
        platform = PLATFORM_ALIASES.get(first[0])
        if platform is None:
            return None
        result = Avail()
        for a in args[1:]:
            key = a.split(":")[0].strip()
            if key == "unavailable":
                result.unavailable.add(platform)
            elif key == "introduced":
                result.versions[platform] = parse_version(a.split(":", 1)[1].strip())
        return None if result.is_empty() else result
    # Short form: macOS 13.0, iOS 16.0, SwiftStdlib 5.7, *
    result = Avail()
    for a in args:
        words = a.split()
        if not words or words == ["*"]:
            continue
        if words[0] in PLATFORM_ALIASES and len(words) == 2:
            result.versions[PLATFORM_ALIASES[words[0]]] = parse_version(words[1])
            continue
        macro = macros.get(" ".join(words))
        if macro is not None:
            result = macro.merged_into(result)
    return None if result.is_empty() else result


# ---------------------------------------------------------------------------------------
# Package.swift

def strip_swift_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def read_floor(root):
    """(floor dict, declared bool, line of the Package/platforms declaration, extra macros)."""
    path = os.path.join(root, "Package.swift")
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    macros = dict(MACROS)
    for m in re.finditer(r'AvailabilityMacro=([^":]+):([^"]*)"', raw):
        macros.update(parse_macro_definitions("%s:%s" % (m.group(1), m.group(2))))
    text = strip_swift_comments(raw)
    m = None
    for candidate in re.finditer(r"\bplatforms\s*(?::|=)\s*\[", text):
        if re.search(r"\bwhen\s*\(\s*$", text[:candidate.start()]):
            continue    # .when(platforms: [...]) in a target condition
        m = candidate
        break
    if not m:
        line = raw[:raw.find("Package(")].count("\n") + 1 if "Package(" in raw else 1
        return dict(CONCURRENCY_FLOOR), False, line, macros
    depth, i = 1, m.end()
    while i < len(text) and depth:
        depth += {"[": 1, "]": -1}.get(text[i], 0)
        i += 1
    body = text[m.end():i - 1]
    floor = dict(SWIFTPM_DEFAULT_FLOOR)
    for e in re.finditer(r'\.(\w+)\s*\(\s*(?:\.v(\d+(?:_\d+)*)|"(\d+(?:\.\d+)*)")', body):
        platform = PLATFORM_ALIASES.get(e.group(1))
        if platform:
            version = e.group(2).replace("_", ".") if e.group(2) else e.group(3)
            floor[platform] = parse_version(version)
    return floor, True, text[:m.start()].count("\n") + 1, macros


def describe_floor(floor):
    return ", ".join("%s %s" % (p, format_version(floor[p])) for p in PLATFORMS)


# ---------------------------------------------------------------------------------------
# Toolchain interfaces

def find_interface_dir(explicit):
    """The toolchain's linux module folder: next to the real `swift` binary, or where
    `swift -print-target-info` says (for toolchain managers' proxy binaries)."""
    if explicit:
        return explicit
    swift = shutil.which("swift")
    if not swift:
        return None
    guess = os.path.normpath(os.path.join(os.path.dirname(os.path.realpath(swift)),
                                          "..", "lib", "swift", "linux"))
    if os.path.isdir(guess):
        return guess
    try:
        info = json.loads(subprocess.run([swift, "-print-target-info"], capture_output=True,
                                         text=True, timeout=60, check=True).stdout)
        for path in info["paths"].get("runtimeLibraryImportPaths", []):
            if os.path.isdir(path) and any(e.endswith(".swiftmodule") for e in os.listdir(path)):
                return path
    except (OSError, ValueError, KeyError, subprocess.SubprocessError):
        pass
    return guess


_STRING_RE = re.compile(r'(#*)"(?:\\.|[^"\\])*"\1')
_ATTR_RE = re.compile(r"@(\w+)(\((?:[^()]|\([^()]*\))*\))?\s*")
_MODIFIER_RE = re.compile(
    r"(?:(?:public|open|internal|private|fileprivate|package)(?:\(set\))?|static|final|"
    r"override|mutating|nonmutating|nonisolated|convenience|required|optional|dynamic|"
    r"lazy|indirect|prefix|postfix|infix|consuming|borrowing|__consuming|distributed|"
    r"class(?=\s+(?:func|var|let|subscript)\b))\s+")
_DECL_RE = re.compile(
    r"(struct|class|enum|actor|protocol|extension|func|init[?!]?|var|let|subscript|"
    r"typealias|associatedtype|case|macro|deinit|operator|precedencegroup)\b\s*"
    r"(`[^`]+`|[\w.]+|[^\s(<]+)?")


class Table:
    def __init__(self):
        self.types = {}     # name -> (Avail, module)  (top-level types, typealiases, macros)
        self.members = {}   # (owner simple name, base) -> list of (label, Avail, module)
        self.funcs = {}     # name -> list of (label, Avail, module)
        self.modules = set()
        self.primary_protocols = set()  # protocols with primary associated types

    def add_member(self, owner, base, label, avail, module):
        self.members.setdefault((owner, base), []).append((label, avail, module))

    def by_spelling(self):
        """(base, label) -> (min Avail over every overload of that spelling, modules)."""
        result = {}
        for (owner, base), overloads in self.members.items():
            for label, avail, module in overloads:
                key = (base, label)
                prev = result.get(key)
                result[key] = (avail_min(prev[0] if prev else None, avail),
                               (prev[1] if prev else set()) | {module})
        for name, overloads in self.funcs.items():
            for label, avail, module in overloads:
                key = (name, label)
                prev = result.get(key)
                result[key] = (avail_min(prev[0] if prev else None, avail),
                               (prev[1] if prev else set()) | {module})
        return result


def first_label(params):
    """First argument label of a parameter list text starting after '('."""
    m = re.match(r"\s*(\)|`?(\w+)`?\s*(`?\w+`?)?\s*:)", params)
    if not m:
        return None
    if m.group(1) == ")":
        return "()"
    return m.group(2)


def parse_interface(path, module, table, macros, known_modules):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    stack = []          # type contexts: ("type", qualified name, Avail or None, is_protocol)
    body_depth = 0      # braces open inside a function or accessor body (not parsed)
    pending = []        # Avail of @available lines waiting for their declaration
    pending_skip = False
    in_multiline = False
    for line in lines:
        if in_multiline:
            if '"""' not in line:
                continue
            in_multiline = False
            line = line[line.index('"""') + 3:]
        if '"' in line:
            if '"""' in line:
                head, _, tail = line.partition('"""')
                in_multiline = '"""' not in tail
                line = head
            line = _STRING_RE.sub('""', line)
        if "//" in line:
            line = line[:line.index("//")]
        stripped = line.strip()
        if not stripped:
            continue
        if body_depth:
            body_depth += stripped.count("{") - stripped.count("}")
            if body_depth < 0:
                del stack[len(stack) + body_depth:]
                body_depth = 0
            continue
        if stripped.startswith("#"):
            continue
        rest = stripped
        own = list(pending)
        skip = pending_skip
        while True:
            m = _ATTR_RE.match(rest)
            if not m:
                break
            name, args = m.group(1), m.group(2)
            if name == "available" and args:
                a = parse_availability_args(args[1:-1], macros)
                if a is not None:
                    own.append(a)
            elif name in ("_spi", "_spi_available"):
                skip = True     # not public API
            rest = rest[m.end():]
        if not rest:
            pending, pending_skip = own, skip
            continue
        pending, pending_skip = [], False
        is_public = False
        while True:
            m = _MODIFIER_RE.match(rest)
            if not m:
                break
            if m.group(0).split("(")[0].strip() in ("public", "open"):
                is_public = True
            rest = rest[m.end():]
        m = _DECL_RE.match(rest)
        kind = m.group(1) if m else None
        if kind and kind.startswith("init"):
            kind = "init"
        enclosing = None
        owner = ""
        in_protocol = False
        if stack:
            enclosing, owner, in_protocol = stack[-1][2], stack[-1][1], stack[-1][3]
        avail = None
        for a in own:
            avail = a if avail is None else a.merged_into(avail)
        if enclosing is not None:
            avail = enclosing if avail is None else avail.merged_into(enclosing)
        name = (m.group(2) or "") if m else ""
        name = name.strip("`")
        if avail is not None and avail.unavailable:
            skip = True     # unusable on some Apple platform: not an API to check
        opens = None
        if kind in ("struct", "class", "enum", "actor", "protocol", "extension"):
            if kind == "extension":
                parts = [p for p in name.split(".") if p]
                while len(parts) > 1 and parts[0] in known_modules:
                    parts = parts[1:]
                qual = ".".join(parts)
            else:
                qual = (owner + "." + name) if owner else name
            simple = qual.split(".")[-1] if qual else ""
            opens = ("type", qual, avail, kind == "protocol")
            if kind == "protocol" and rest[m.end():].lstrip().startswith("<"):
                table.primary_protocols.add(simple)
            visible = (is_public or in_protocol) and not skip and not simple.startswith("_")
            if kind != "extension" and visible and avail is not None and not owner:
                table.types[simple] = (avail, module)
        elif kind in ("typealias", "macro") and avail is not None and not skip \
                and (is_public or in_protocol) and not name.startswith("_"):
            if not owner:
                table.types[name] = (avail, module)
            else:
                table.add_member(owner.split(".")[-1], name, None, avail, module)
        elif kind in ("func", "init", "var", "let") and not skip and (is_public or in_protocol):
            # recorded even without availability: an old overload makes a spelling safe
            avail = avail or Avail()
            if kind == "init":
                base, label = "init", None
                p = rest.find("(")
                if p >= 0:
                    label = first_label(rest[p + 1:])
            elif kind == "func":
                base = name
                label = None
                after = rest[m.end():]
                g = re.match(r"\s*<", after)
                if g:   # skip a generic parameter clause
                    depth, i = 0, g.end() - 1
                    while i < len(after):
                        depth += {"<": 1, ">": -1}.get(after[i], 0)
                        i += 1
                        if depth == 0:
                            break
                    after = after[i:]
                p = after.find("(")
                if p >= 0:
                    label = first_label(after[p + 1:])
            else:
                base, label = name, None
            if base and not base.startswith("_") and re.match(r"\w", base):
                if owner:
                    table.add_member(owner.split(".")[-1], base, label, avail, module)
                elif kind == "func":
                    table.funcs.setdefault(base, []).append((label, avail, module))
        first = True
        for ch in rest:
            if ch == "{":
                if first and opens is not None and not body_depth:
                    stack.append(opens)
                else:
                    body_depth += 1
                first = False
            elif ch == "}":
                if body_depth:
                    body_depth -= 1
                elif stack:
                    stack.pop()


def build_table(interface_dir, macros):
    table = Table()
    entries = []
    for entry in sorted(os.listdir(interface_dir)):
        if not entry.endswith(".swiftmodule"):
            continue
        module = entry[:-len(".swiftmodule")]
        folder = os.path.join(interface_dir, entry)
        if not os.path.isdir(folder):
            continue
        files = sorted(f for f in os.listdir(folder)
                       if f.endswith(".swiftinterface") and ".private." not in f
                       and ".package." not in f)
        if files:
            entries.append((module, os.path.join(folder, files[0])))
    known = {m for m, _ in entries} | {"Builtin", "SwiftShims", "_SwiftConcurrencyShims",
                                        "_SynchronizationShims"}
    for module, path in entries:
        table.modules.add(module)
        parse_interface(path, module, table, macros, known)
    for kind, owner, name, label, module, spec in CURATED:
        avail = parse_availability_args(spec + ", *", macros)
        table.modules.add(module)
        if kind == "type":
            table.types.setdefault(name, (avail, module))
        elif kind == "func":
            table.funcs.setdefault(name, []).append((label, avail, module))
        else:
            table.add_member(owner, name, label, avail, module)
    return table


# ---------------------------------------------------------------------------------------
# Swift lexer

class Tok:
    __slots__ = ("kind", "val", "line", "nl")

    def __init__(self, kind, val, line, nl):
        self.kind, self.val, self.line, self.nl = kind, val, line, nl

    def __repr__(self):
        return "%s:%r@%d" % (self.kind, self.val, self.line)


_LEX_RE = re.compile(r"""
  (?P<ws>[ \t\r\f\v]+)
| (?P<nl>\n)
| (?P<lcomment>//[^\n]*)
| (?P<bcomment>/\*)
| (?P<str>\#*")
| (?P<regex>\#+/)
| (?P<id>`[^`\n]+`|[A-Za-z_\u00c0-\uffff][A-Za-z0-9_\u00c0-\uffff]*|\$[A-Za-z0-9_]+)
| (?P<num>[0-9][0-9_]*(?:\.[0-9][0-9_]*)*(?:[eEpP][+-]?[0-9]+)?[A-Za-z0-9_]*)
| (?P<attr>@[A-Za-z_][A-Za-z0-9_]*)
| (?P<pound>\#[A-Za-z_][A-Za-z0-9_]*)
| (?P<arrow>->)
| (?P<op>.)
""", re.X | re.S)


class Lexer:
    def __init__(self, text):
        self.text = text
        self.toks = []
        self.line = 1
        self.nl = True

    def emit(self, kind, val):
        self.toks.append(Tok(kind, val, self.line, self.nl))
        self.nl = False

    def run(self):
        self.code(0, False)
        return self.toks

    def code(self, pos, in_interp):
        """Lex code from pos; in an interpolation, stop after the unmatched ')'."""
        text = self.text
        depth = 0
        n = len(text)
        while pos < n:
            m = _LEX_RE.match(text, pos)
            kind = m.lastgroup
            val = m.group(kind)
            if kind == "ws":
                pos = m.end()
            elif kind == "nl":
                self.line += 1
                self.nl = True
                pos = m.end()
            elif kind == "lcomment":
                pos = m.end()
            elif kind == "bcomment":
                pos = self.block_comment(m.end())
            elif kind == "str":
                self.emit("str", "")
                pos = self.string(m.end(), len(val) - 1)
            elif kind == "regex":
                end = text.find("/" + "#" * (len(val) - 1), m.end())
                end = n if end < 0 else end + len(val)
                self.line += text.count("\n", pos, end)
                self.emit("str", "")
                pos = end
            elif kind == "id":
                self.emit("id", val.strip("`"))
                pos = m.end()
            elif kind in ("num", "attr", "pound", "arrow"):
                self.emit(kind if kind != "arrow" else "op", val)
                pos = m.end()
            else:
                if in_interp:
                    if val == "(":
                        depth += 1
                    elif val == ")":
                        if depth == 0:
                            self.emit("op", ")")
                            return m.end()
                        depth -= 1
                self.emit("op", val)
                pos = m.end()
        return pos

    def block_comment(self, pos):
        text, depth = self.text, 1
        while pos < len(text) and depth:
            if text.startswith("/*", pos):
                depth += 1
                pos += 2
            elif text.startswith("*/", pos):
                depth -= 1
                pos += 2
            else:
                if text[pos] == "\n":
                    self.line += 1
                    self.nl = True
                pos += 1
        return pos

    def string(self, pos, hashes):
        """pos is just after the opening quote; returns the position after the literal."""
        text = self.text
        multi = text.startswith('""', pos)
        if multi:
            pos += 2
        close = ('"""' if multi else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        n = len(text)
        while pos < n:
            if text.startswith(close, pos):
                return pos + len(close)
            if text.startswith(escape, pos):
                pos += len(escape)
                if pos < n and text[pos] == "(":
                    self.emit("op", "(")
                    pos = self.code(pos + 1, True)
                    continue
                if pos < n and text[pos] == "\n":
                    self.line += 1
                pos += 1
                continue
            if text[pos] == "\n":
                if not multi:
                    return pos
                self.line += 1
            pos += 1
        return pos


# ---------------------------------------------------------------------------------------
# #if evaluation (three-valued: True, False, None = unknown)

def eval_condition(toks):
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        t = peek()
        pos[0] += 1
        return t

    def primary():
        t = take()
        if t is None:
            return None
        if t.kind == "op" and t.val == "!":
            v = primary()
            return None if v is None else not v
        if t.kind == "op" and t.val == "(":
            v = disjunction()
            if peek() is not None and peek().val == ")":
                take()
            return v
        if t.kind == "id":
            if peek() is not None and peek().val == "(":
                take()
                args = []
                depth = 1
                while peek() is not None:
                    a = take()
                    if a.val == "(":
                        depth += 1
                    elif a.val == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    args.append(a.val)
                arg = "".join(args)
                if t.val == "os":
                    if arg in NON_APPLE_OS:
                        return False
                    return None if arg in APPLE_OS else False
                if t.val == "canImport":
                    module = arg.split(",")[0].split(".")[0]
                    if module in NON_APPLE_MODULES:
                        return False
                    if module in APPLE_MODULES:
                        return True
                    return None
                if t.val == "_runtime":
                    return arg == "_ObjC"
                if t.val == "_objc_interop":
                    return True
                return None
            if t.val == "true":
                return True
            if t.val == "false":
                return False
            return None
        return None

    def conjunction():
        v = primary()
        while peek() is not None and peek().val == "&":
            take()
            if peek() is not None and peek().val == "&":
                take()
            w = primary()
            v = False if (v is False or w is False) else (True if v and w else None)
        return v

    def disjunction():
        v = conjunction()
        while peek() is not None and peek().val == "|":
            take()
            if peek() is not None and peek().val == "|":
                take()
            w = conjunction()
            v = True if (v is True or w is True) else (False if v is False and w is False else None)
        return v

    return disjunction()


def apply_conditional_compilation(toks):
    out = []
    stack = []   # (this branch live, some earlier branch definitely taken, parent live)
    live = True
    i, n = 0, len(toks)
    while i < n:
        t = toks[i]
        if t.kind == "pound" and t.val in ("#if", "#elseif", "#else", "#endif"):
            j = i + 1
            depth = 0
            while j < n and (depth > 0 or not toks[j].nl):
                if toks[j].val == "(":
                    depth += 1
                elif toks[j].val == ")":
                    depth -= 1
                j += 1
            cond = eval_condition(toks[i + 1:j]) if t.val in ("#if", "#elseif") else True
            if t.val == "#if":
                stack.append([live and cond is not False, cond is True, live])
            elif stack:
                frame = stack[-1]
                if t.val == "#endif":
                    stack.pop()
                else:
                    taken = frame[1]
                    frame[0] = frame[2] and not taken and cond is not False
                    frame[1] = taken or cond is True
            live = stack[-1][0] if stack else True
            i = j
            continue
        if live:
            out.append(t)
        i += 1
    return out


# ---------------------------------------------------------------------------------------
# Source analysis

class Problem:
    __slots__ = ("path", "line", "name", "need", "context")

    def __init__(self, path, line, name, need, context):
        self.path, self.line, self.name, self.need, self.context = \
            path, line, name, need, context


class SourceFile:
    def __init__(self, relpath, text):
        self.relpath = relpath
        self.toks = apply_conditional_compilation(Lexer(text).run())
        self.n = len(self.toks)
        self.match = [-1] * self.n
        self.parent = [-1] * self.n   # innermost enclosing '{'
        stack = []
        braces = []
        for i, t in enumerate(self.toks):
            self.parent[i] = braces[-1] if braces else -1
            if t.kind != "op":
                continue
            if t.val in "([{" and len(t.val) == 1:
                stack.append(i)
                if t.val == "{":
                    braces.append(i)
            elif t.val in ")]}" and len(t.val) == 1:
                # pop to the matching opener kind (tolerates stray closers)
                want = {")": "(", "]": "[", "}": "{"}[t.val]
                k = len(stack) - 1
                while k >= 0 and self.toks[stack[k]].val != want:
                    k -= 1
                if k < 0:
                    continue
                for extra in stack[k + 1:]:
                    self.match[extra] = self.n - 1
                opener = stack[k]
                del stack[k:]
                self.match[opener] = i
                self.match[i] = opener
                if want == "{":
                    while braces and braces[-1] >= opener:
                        braces.pop()
                    self.parent[i] = braces[-1] if braces else -1
        for opener in stack:
            self.match[opener] = self.n - 1
        self.imports = set()
        self.import_lines = set()
        for i, t in enumerate(self.toks):
            if t.kind == "id" and t.val == "import" and i + 1 < self.n:
                j = i + 1
                if self.toks[j].val in TYPE_KEYWORDS | {"func", "var", "let", "typealias"}:
                    j += 1
                if j < self.n and self.toks[j].kind == "id":
                    self.imports.add(self.toks[j].val)
                    k = j
                    while k + 2 < self.n and self.toks[k + 1].val == "." and \
                            self.toks[k + 2].kind == "id":
                        k += 2
                    for x in range(i, k + 1):
                        self.import_lines.add(x)
        self.brace_kind = {}

    # -- statement structure ------------------------------------------------------------

    def continues(self, a, b):
        """Whether the line break between tokens a and b continues one statement."""
        ta, tb = self.toks[a], self.toks[b]
        if ta.kind == "op" and ta.val in CONT_PREV_OPS:
            return True
        if ta.kind == "id" and ta.val in CONT_PREV_IDS:
            return True
        if ta.kind == "attr":
            return True
        if ta.kind == "op" and ta.val == ")" and self.match[a] > 0 and \
                self.toks[self.match[a] - 1].kind == "attr":
            return True    # an attribute with arguments on the line before
        if tb.kind == "op" and tb.val in CONT_NEXT_OPS:
            return True
        if tb.kind == "id" and tb.val in CONT_NEXT_IDS:
            return True
        return False

    def stmt_start(self, i, through_groups=False):
        """First token of the statement containing token i (walking back over groups;
        with through_groups, also out of the parentheses or brackets around i)."""
        toks = self.toks
        j = i - 1
        start = i
        while j >= 0:
            t = toks[j]
            if t.kind == "op":
                if t.val in (")", "]"):
                    if self.match[j] >= 0 and self.match[j] < j:
                        if toks[start].nl and not self.continues(j, start):
                            return start
                        start = self.match[j]
                        j = self.match[j] - 1
                        continue
                if t.val in ("{", "}", ";") or (t.val in ("(", "[") and not through_groups):
                    return start
            if toks[start].nl and not self.continues(j, start):
                return start
            start = j
            j -= 1
        return start

    def stmt_end(self, i):
        """Last token of the statement that starts at (or contains) token i."""
        toks = self.toks
        j = i + 1
        last = i
        while j < self.n:
            t = toks[j]
            if t.kind == "op":
                if t.val in "([{" and len(t.val) == 1:
                    if t.nl and not self.continues(last, j):
                        return last
                    last = self.match[j] if self.match[j] > j else self.n - 1
                    j = last + 1
                    continue
                if t.val in ")]}" and len(t.val) == 1:
                    return last
                if t.val == ";":
                    return j
            if t.nl and not self.continues(last, j):
                return last
            last = j
            j += 1
        return last

    def top_level(self, start, end):
        """Indexes in [start, end) not inside a (), [] or {} group that starts there."""
        out = []
        j = start
        while j < end:
            out.append(j)
            t = self.toks[j]
            if t.kind == "op" and t.val in ("(", "[", "{") and self.match[j] > j:
                j = self.match[j]
                continue
            j += 1
        return out

    def skip_attrs_modifiers(self, idxs, k=0):
        """Position in idxs of the first token that is not an attribute or modifier."""
        toks = self.toks
        while k < len(idxs):
            t = toks[idxs[k]]
            if t.kind == "attr":
                k += 1
                if k < len(idxs) and toks[idxs[k]].val == "(" and not toks[idxs[k]].nl:
                    k += 1
                continue
            if t.kind == "id" and t.val in MODIFIERS:
                k += 1
                if k < len(idxs) and toks[idxs[k]].val == "(" and \
                        t.val in ("public", "private", "fileprivate", "internal", "package"):
                    k += 1
                continue
            if t.kind == "id" and t.val == "class" and k + 1 < len(idxs) and \
                    toks[idxs[k + 1]].val in ("func", "var", "let", "subscript"):
                k += 1
                continue
            break
        return k

    def classify_brace(self, b):
        if b in self.brace_kind:
            return self.brace_kind[b]
        toks = self.toks
        s = self.stmt_start(b)
        hdr = self.top_level(s, b)
        kind = "closure"
        if hdr:
            k = self.skip_attrs_modifiers(hdr)
            first = toks[hdr[k]] if k < len(hdr) else None
            if first is not None and first.kind == "id":
                v = first.val
                if v in TYPE_KEYWORDS or v in ("macro", "precedencegroup"):
                    kind = "type"
                elif v in ("func", "init", "deinit", "subscript"):
                    kind = "func"
                elif v in ("var", "let"):
                    eq = any(toks[x].val == "=" for x in hdr[k:])
                    kind = "closure" if eq else "accessor"
                elif v in ACCESSOR_KEYWORDS and toks[hdr[-1]].val not in (")", "]"):
                    kind = "accessor"
                elif v in STMT_KEYWORDS:
                    kind = "stmt"
        self.brace_kind[b] = kind
        return kind

    def decl_attributes(self, k):
        """(first attribute index, [attribute token indexes]) immediately before token k."""
        toks = self.toks
        j = k - 1
        start = k
        attrs = []
        while j >= 0:
            t = toks[j]
            if t.kind == "op" and t.val == ")" and self.match[j] >= 0 and self.match[j] < j:
                o = self.match[j]
                if o > 0 and toks[o - 1].kind == "attr":
                    attrs.append(o - 1)
                    start = j = o - 1
                    j -= 1
                    continue
                if o > 0 and toks[o - 1].kind == "id" and toks[o - 1].val in (
                        "public", "private", "fileprivate", "internal", "package"):
                    start = o - 1
                    j = o - 2
                    continue
                break
            if t.kind == "attr":
                attrs.append(j)
                start = j
                j -= 1
                continue
            if t.kind == "id" and (t.val in MODIFIERS or t.val == "class"):
                start = j
                j -= 1
                continue
            break
        return start, attrs

    # -- regions --------------------------------------------------------------------------

    def availability_regions(self, macros):
        toks = self.toks
        regions = []
        for i, t in enumerate(toks):
            if t.kind == "attr" and t.val == "@available" and i + 1 < self.n and \
                    toks[i + 1].val == "(" and self.match[i + 1] > i:
                avail = self.parse_args(i + 1, macros, conditional=False)
                if avail is None:
                    continue
                # the declaration: skip further attributes and modifiers
                j = self.match[i + 1] + 1
                while j < self.n:
                    tj = toks[j]
                    if tj.kind == "attr":
                        j += 1
                        if j < self.n and toks[j].val == "(" and not toks[j].nl:
                            j = self.match[j] + 1
                        continue
                    if tj.kind == "id" and (tj.val in MODIFIERS or tj.val == "class"):
                        j += 1
                        if j < self.n and toks[j].val == "(" and tj.val in (
                                "public", "private", "fileprivate", "internal", "package"):
                            j = self.match[j] + 1
                        continue
                    break
                if j >= self.n:
                    continue
                end = self.stmt_end(j)
                regions.append((i, end, avail))
            elif t.kind == "pound" and t.val in ("#available", "#unavailable") and \
                    i + 1 < self.n and toks[i + 1].val == "(":
                avail = self.parse_args(i + 1, macros, conditional=True)
                if avail is None:
                    continue
                s = self.stmt_start(i)
                hdr = self.top_level(s, self.n)
                head = None
                for x in hdr:
                    if toks[x].kind == "id" and toks[x].val in ("if", "guard", "while"):
                        head = toks[x].val
                        break
                # the first top-level '{' after the condition
                body = next((x for x in hdr if x > i and toks[x].val == "{"), None)
                if body is None or head is None:
                    continue
                close = self.match[body]
                after = self.match[i + 1]   # later conditions of the statement are refined
                if head == "guard":
                    if t.val == "#available":
                        p = self.parent[body]
                        scope_end = self.match[p] if p >= 0 else self.n - 1
                        regions.append((after, body - 1, avail))
                        regions.append((close, scope_end, avail))
                    else:
                        regions.append((body, close, avail))
                else:
                    if t.val == "#available":
                        regions.append((after, close, avail))
                    elif close + 2 < self.n and toks[close + 1].val == "else" and \
                            toks[close + 2].val == "{":
                        regions.append((close + 2, self.match[close + 2], avail))
        return regions

    def parse_args(self, open_idx, macros, conditional):
        toks = self.toks
        close = self.match[open_idx]
        text = []
        for x in range(open_idx + 1, close):
            v = toks[x].val
            if toks[x].kind == "str":
                v = '""'
            text.append(v)
        # rebuild "macOS 13.0, iOS 16" from tokens
        joined = ""
        for x, v in enumerate(text):
            if v in (",", ":", "(", ")", "."):
                joined += v
            else:
                joined += " " + v
        joined = joined.replace(" .", ".")
        return parse_availability_args(joined, macros, conditional)


# ---------------------------------------------------------------------------------------
# The check

class Checker:
    def __init__(self, root, floor, table, macros, sources):
        self.root = root
        self.floor = floor
        self.table = table
        self.macros = macros
        self.sources = sources
        self.problems = []
        self.spellings = table.by_spelling()
        self.declared_types = set()
        self.declared_funcs = set()
        self.declared_inits = set()
        self.primary_protocols = set(table.primary_protocols)
        for sf in sources:
            self.collect_declarations(sf)

    @staticmethod
    def expand_modules(modules):
        result = set(IMPLICIT_MODULES) | set(modules)
        for m in list(modules):
            result |= REEXPORTS.get(m, set())
        return result

    def collect_declarations(self, sf):
        toks = sf.toks
        for i, t in enumerate(toks[:-1]):
            if t.kind != "id":
                continue
            nxt = toks[i + 1]
            if t.val in ("struct", "class", "enum", "actor", "protocol", "typealias",
                         "associatedtype") and nxt.kind == "id":
                if not (t.val == "class" and nxt.val in ("func", "var", "let", "subscript")):
                    self.declared_types.add(nxt.val)
                if t.val == "protocol" and i + 2 < sf.n and toks[i + 2].val == "<":
                    self.primary_protocols.add(nxt.val)
            elif t.val == "func" and nxt.kind == "id":
                self.declared_funcs.add(nxt.val)
            elif t.val == "init" and i > 0 and toks[i - 1].val != ".":
                j = i + 1
                if j < sf.n and toks[j].val in ("?", "!"):
                    j += 1
                if j < sf.n and toks[j].val == "<":
                    while j < sf.n and toks[j].val != "(":
                        j += 1
                if j + 2 < sf.n and toks[j].val == "(" and toks[j + 1].kind == "id":
                    self.declared_inits.add(toks[j + 1].val)

    def generic_shadows(self, sf):
        """(name, start, end) for generic parameters of declarations in the file."""
        toks = sf.toks
        out = []
        for i, t in enumerate(toks):
            if t.kind != "id" or t.val not in ("func", "struct", "class", "enum", "actor",
                                               "typealias", "init", "subscript"):
                continue
            j = i + 1
            if t.val not in ("init", "subscript"):
                j += 1
            if j < sf.n and toks[j].val in ("?", "!") and t.val == "init":
                j += 1
            if j >= sf.n or toks[j].val != "<":
                continue
            depth = 0
            end = sf.stmt_end(i)
            k = j
            while k < sf.n:
                v = toks[k].val
                if v == "<":
                    depth += 1
                elif v == ">":
                    depth -= 1
                    if depth == 0:
                        break
                elif depth == 1 and toks[k].kind == "id" and \
                        toks[k - 1].val in ("<", ",", "each") and \
                        k + 1 < sf.n and toks[k + 1].val in (":", ",", ">", "="):
                    out.append((v, i, end))
                elif v in ("{", ";"):
                    break
                k += 1
        return out

    def context_at(self, regions, pos):
        ctx = Avail(self.floor)
        for start, end, avail in regions:
            if start <= pos <= end:
                ctx = avail.merged_into(ctx)
        return ctx

    def report(self, sf, regions, pos, name, need, seen):
        """Record a problem unless the context at token pos is new enough; True if new."""
        ctx = self.context_at(regions, pos)
        short = []
        for p in PLATFORMS:
            req = need.effective(p)
            if req is None or p in ctx.unavailable:
                continue
            have = ctx.effective(p) or self.floor.get(p, (0, 0, 0))
            have = max(have, self.floor.get(p, (0, 0, 0)))
            if have < req:
                short.append(p)
        if not short:
            return False
        key = (sf.toks[pos].line, name)
        if key in seen:
            return True
        seen.add(key)
        guarded = any(start <= pos <= end for start, end, _ in regions)
        context = None
        if guarded:
            context = "; the enclosing availability (%s) is not enough for %s" % (
                ctx.describe(), ", ".join(short))
        self.problems.append(Problem(sf.relpath, sf.toks[pos].line, name, need, context))
        return True

    def check_file(self, sf):
        toks = sf.toks
        regions = sf.availability_regions(self.macros)
        file_modules = self.expand_modules(sf.imports)
        shadows = {}
        for name, start, end in self.generic_shadows(sf):
            shadows.setdefault(name, []).append((start, end))
        seen = set()
        reported = set()

        def shadowed(name, pos):
            return any(s <= pos <= e for s, e in shadows.get(name, ()))

        def call_label(j):
            """For a name at j: (called, label) with label '()' for no arguments."""
            if j + 1 < sf.n and toks[j + 1].val == "(":
                if j + 2 < sf.n and toks[j + 2].val == ")":
                    return True, "()"
                if j + 3 < sf.n and toks[j + 2].kind == "id" and toks[j + 3].val == ":":
                    return True, toks[j + 2].val
                return True, "_"
            if j + 1 < sf.n and toks[j + 1].val == "{":
                return True, None
            return False, None

        def pick(overloads, label, modules):
            best = None
            found = False
            for lab, avail, module in overloads:
                if module not in modules:
                    continue
                if label is not None and lab is not None and lab != label:
                    continue
                found = True
                best = avail_min(best, avail)
            return best if found else None

        skip_to = -1
        for i, t in enumerate(toks):
            if i in sf.import_lines or i <= skip_to:
                continue
            if t.kind == "attr":
                name = t.val[1:]
                if not name[:1].isupper() and i + 1 < sf.n and toks[i + 1].val == "(" \
                        and not toks[i + 1].nl:
                    # arguments of a built-in attribute (@available, @attached, ...)
                    skip_to = sf.match[i + 1]
                entry = self.table.types.get(name)
                if entry and entry[1] in file_modules and name not in self.declared_types:
                    self.report(sf, regions, i, "@" + name, entry[0], seen)
                continue
            if t.kind != "id":
                continue
            name = t.val
            prev = toks[i - 1] if i > 0 else None
            after_dot = prev is not None and prev.kind == "op" and prev.val == "."
            qualifier = toks[i - 2] if after_dot and i > 1 else None
            if after_dot and qualifier is not None and qualifier.kind == "id" and \
                    qualifier.val in self.table.modules and \
                    (i < 3 or toks[i - 3].val != "."):
                after_dot = False   # Swift.Duration
            called, label = call_label(i)
            if not after_dot:
                # labels `f(Duration: x)` are not references
                if i + 1 < sf.n and toks[i + 1].val == ":" and prev is not None and \
                        prev.val in ("(", ","):
                    continue
                entry = self.table.types.get(name)
                if entry and entry[1] in file_modules and name not in self.declared_types \
                        and not shadowed(name, i):
                    if self.report(sf, regions, i, name, entry[0], seen):
                        reported.add(i)
                    continue
                # Type(label: ...) initializers newer than their type
                if called and label not in (None, "_", "()") and name[:1].isupper() and \
                        (name, "init") in self.table.members and \
                        label not in self.declared_inits:
                    need = pick(self.table.members[(name, "init")], label, file_modules)
                    if need is not None:
                        self.report(sf, regions, i, "%s(%s:)" % (name, label), need, seen)
                        continue
                # free functions
                if called and name in self.table.funcs and name not in self.declared_funcs \
                        and (prev is None or prev.val not in ("func",)):
                    need = pick(self.table.funcs[name], label, file_modules)
                    if need is not None:
                        shown = name + ("(%s:)" % label if label not in (None, "_", "()")
                                        else "")
                        self.report(sf, regions, i, shown, need, seen)
                continue
            if i >= 2 and (i - 2) in reported:
                continue    # `Duration.seconds`: the type is reported already
            # member access: Type.member
            if qualifier is not None and qualifier.kind == "id" and \
                    qualifier.val[:1].isupper() and \
                    (qualifier.val, name) in self.table.members and \
                    qualifier.val not in self.declared_types:
                need = pick(self.table.members[(qualifier.val, name)], label, file_modules)
                if need is not None:
                    shown = "%s.%s" % (qualifier.val, name)
                    if label not in (None, "_", "()"):
                        shown += "(%s:)" % label
                    self.report(sf, regions, i, shown, need, seen)
                    continue
            # .member(label: ...) with a distinctive labeled spelling
            if called and label not in (None, "_", "()") and not label.startswith("_") and \
                    name != "init" and name not in self.declared_funcs:
                entry = self.spellings.get((name, label))
                if entry is not None and entry[1] & file_modules:
                    self.report(sf, regions, i, ".%s(%s:)" % (name, label), entry[0], seen)
        self.check_features(sf, regions, seen)

    # -- language features --------------------------------------------------------------

    def feature(self, macro):
        return self.macros[macro]

    def check_features(self, sf, regions, seen):
        toks = sf.toks
        for i, t in enumerate(toks):
            if t.kind == "id" and t.val in ("struct", "class", "enum", "actor") and \
                    i + 2 < sf.n and toks[i + 1].kind == "id" and toks[i + 2].val == "<" and \
                    not (i > 0 and toks[i - 1].val == "."):
                depth = 0
                k = i + 2
                while k < sf.n:
                    v = toks[k].val
                    if v == "<":
                        depth += 1
                    elif v == ">":
                        depth -= 1
                        if depth == 0:
                            break
                    elif v in ("{", ";"):
                        break
                    elif v == "each" and toks[k].kind == "id":
                        self.report(sf, regions, i, "parameter pack in generic type %s"
                                    % toks[i + 1].val, self.feature(FEATURE_PACK_TYPE), seen)
                        break
                    k += 1
            elif t.kind == "attr" and t.val == "@isolated" and i + 3 < sf.n and \
                    toks[i + 1].val == "(" and toks[i + 2].val == "any":
                where = self.metadata_position(sf, i, i)
                if where:
                    self.report(sf, regions, i, "@isolated(any) function type %s" % where,
                                self.feature(FEATURE_ISOLATED_ANY), seen)
            elif t.kind == "id" and t.val == "throws" and i + 1 < sf.n and \
                    toks[i + 1].val == "(" and sf.match[i + 1] > i:
                inner = " ".join(toks[x].val for x in range(i + 2, sf.match[i + 1]))
                if inner.replace(" ", "") in ("anyError", "Error", "anySwift.Error",
                                              "Swift.Error", "Never", "Swift.Never"):
                    continue    # the same as `throws` / not throwing
                # the function type starts at the '(' of its parameter list
                j = i - 1
                if j >= 0 and toks[j].val == "async":
                    j -= 1
                if j < 0 or toks[j].val != ")" or sf.match[j] < 0:
                    continue
                where = self.metadata_position(sf, sf.match[j], i)
                if where:
                    self.report(sf, regions, i, "typed throws function type throws(%s) %s"
                                % (inner, where), self.feature(FEATURE_TYPED_THROWS), seen)
            elif t.kind == "id" and t.val == "any" and i + 2 < sf.n and \
                    toks[i + 1].kind == "id":
                k = i + 1
                while k + 2 < sf.n and toks[k + 1].val == "." and toks[k + 2].kind == "id":
                    k += 2
                if k + 1 < sf.n and toks[k + 1].val == "<" and not toks[k + 1].nl and \
                        toks[k].val in self.primary_protocols:
                    where = self.metadata_position(sf, i, i, stored=False)
                    if where:
                        proto = toks[k].val
                        self.report(sf, regions, i, "parameterized existential any %s<...> %s"
                                    % (proto, where), self.feature(FEATURE_PARAM_EXISTENTIAL),
                                    seen)

    def metadata_position(self, sf, type_start, marker, stored=True):
        """Why the type starting at type_start needs runtime metadata, or None.
        With stored=False, stored properties and type aliases do not count."""
        toks = sf.toks
        # 1. inside <...> or [...] (walking out through parentheses)
        j = type_start - 1
        angle = 0
        while j >= 0:
            t = toks[j]
            v = t.val
            if t.kind == "op":
                if v in (")", "]", "}") and sf.match[j] >= 0 and sf.match[j] < j:
                    if v == "}":
                        break
                    j = sf.match[j] - 1
                    continue
                if v == ">":
                    angle += 1
                elif v == "<":
                    if angle == 0:
                        if j > 0 and toks[j - 1].val == "Optional":
                            j -= 1
                            continue    # Optional<...> needs no metadata check
                        return "as a generic argument"
                    angle -= 1
                elif v == "[":
                    return "in an array or dictionary type"
                elif v in ("{", "}", ";", "="):
                    break
                elif v == "(":
                    # a declaration's parameter list: parameter types are fine
                    before = toks[j - 1] if j > 0 else None
                    if before is not None and (
                            before.val in ("init", "subscript") or
                            (before.kind == "id" and j > 1 and toks[j - 2].val == "func") or
                            (before.val == ">" and self.generic_decl_before(sf, j - 1))):
                        break
                    if before is not None and before.val in ("?", "!") and j > 1 and \
                            toks[j - 2].val == "init":
                        break
            elif t.kind == "id" and v in ("func", "in", "return", "if", "guard", "case"):
                break
            j -= 1
        # 2. the target of a cast
        j = type_start - 1
        while j >= 0 and (toks[j].kind == "attr" or toks[j].val in ("sending", "(")):
            j -= 1
        if j >= 1 and toks[j].val in ("?", "!") and toks[j - 1].val == "as":
            return "as the target of a dynamic cast"
        if j >= 0 and toks[j].val == "is":
            return "as the target of a dynamic cast"
        if not stored:
            return None
        # 3. a stored property or a type alias in a type body
        s = sf.stmt_start(marker, through_groups=True)
        hdr = sf.top_level(s, sf.stmt_end(s) + 1)
        k = sf.skip_attrs_modifiers(hdr)
        if k >= len(hdr):
            return None
        first = toks[hdr[k]]
        p = sf.parent[hdr[k]]
        scope = "file" if p < 0 else sf.classify_brace(p)
        if first.val in ("let", "var") and scope in ("type", "file"):
            colon = next((x for x in hdr[k:] if toks[x].val == ":"), None)
            stop = next((x for x in hdr[k:] if toks[x].val in ("=", "{")), None)
            if colon is None or marker < colon or (stop is not None and marker > stop):
                return None
            if stop is not None and toks[stop].val == "{" and first.val == "var":
                inside = toks[stop + 1] if stop + 1 < sf.n else None
                if inside is None or inside.val not in ("didSet", "willSet"):
                    return None   # computed property
            return "as the type of a stored property"
        if first.val == "typealias" and scope == "type":
            return "in a type alias in a type body"
        return None

    @staticmethod
    def generic_decl_before(sf, gt):
        """Whether the '>' at gt closes the generic parameters of a func/init."""
        toks = sf.toks
        depth = 0
        j = gt
        while j >= 0:
            if toks[j].val == ">":
                depth += 1
            elif toks[j].val == "<":
                depth -= 1
                if depth == 0:
                    return j > 1 and (toks[j - 1].val == "init" or toks[j - 2].val == "func")
            elif toks[j].val in ("{", "}", ";"):
                return False
            j -= 1
        return False


def collect_sources(root, folders=("Sources",)):
    files = []
    for folder in folders:
        base = os.path.join(root, folder)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith(".swift"):
                    files.append(os.path.join(dirpath, f))
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=None,
                        help="package root (default: the parent of this script's folder)")
    parser.add_argument("--interfaces", default=None,
                        help="folder of *.swiftmodule/*.swiftinterface "
                             "(default: the toolchain of `swift` on PATH)")
    parser.add_argument("folders", nargs="*", default=["Sources"],
                        help="folders under the root whose Swift files are checked "
                             "(default: Sources); every target the package builds for "
                             "Apple platforms belongs here (tests and examples too)")
    parser.add_argument("--dump-table", action="store_true",
                        help="print the API table entries newer than the floor and exit")
    args = parser.parse_args(argv)
    root = args.root or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = os.path.abspath(root)
    if not os.path.isfile(os.path.join(root, "Package.swift")):
        print("check-availability: no Package.swift in %s" % root, file=sys.stderr)
        return 2
    floor, declared, platforms_line, macros = read_floor(root)
    interface_dir = find_interface_dir(args.interfaces)
    if not interface_dir or not os.path.isdir(interface_dir):
        print("check-availability: no toolchain interfaces found (%s); pass --interfaces"
              % interface_dir, file=sys.stderr)
        return 2
    table = build_table(interface_dir, macros)
    if not table.types and not table.members:
        print("check-availability: no availability found in %s" % interface_dir,
              file=sys.stderr)
        return 2

    def newer(avail):
        return any((avail.effective(p) or (0, 0, 0)) > floor[p] for p in PLATFORMS)

    if args.dump_table:
        for name, (avail, module) in sorted(table.types.items()):
            if newer(avail):
                print("type   %-40s %-18s %s" % (name, module, avail.describe()))
        for name, overloads in sorted(table.funcs.items()):
            for label, avail, module in overloads:
                if newer(avail):
                    print("func   %-40s %-18s %s" % ("%s(%s:)" % (name, label), module,
                                                     avail.describe()))
        for (owner, base), overloads in sorted(table.members.items()):
            for label, avail, module in overloads:
                if newer(avail):
                    print("member %-40s %-18s %s" % ("%s.%s(%s)" % (owner, base, label),
                                                     module, avail.describe()))
        return 0
    # keep only entries newer than the floor (fewer lookups, same results)
    table.types = {k: v for k, v in table.types.items() if newer(v[0])}
    sources = []
    for path in collect_sources(root, args.folders):
        with open(path, encoding="utf-8", errors="replace") as f:
            sources.append(SourceFile(os.path.relpath(path, root), f.read()))
    checker = Checker(root, floor, table, macros, sources)
    # drop member spellings that are available at the floor anyway
    checker.spellings = {k: v for k, v in checker.spellings.items() if newer(v[0])}
    for sf in sources:
        checker.check_file(sf)
    problems = sorted(checker.problems, key=lambda p: (p.path, p.line, p.name))
    floor_text = describe_floor(floor)
    count = len(problems)
    if not declared:
        count += 1
        print("Package.swift:%d: error: no `platforms:` declared; SwiftPM would build for "
              "macOS 10.13, iOS 12, tvOS 12, watchOS 4; checking against %s instead"
              % (platforms_line, floor_text))
    for p in problems:
        print("%s:%d: error: '%s' needs %s; add @available or #available%s "
              "(declared floor: %s)" % (p.path, p.line, p.name, p.need.describe(floor),
                                        p.context or "", floor_text))
    print("availability: %d files checked, %d problems" % (len(sources), count))
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
