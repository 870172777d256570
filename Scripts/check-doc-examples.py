#!/usr/bin/env python3
"""Compiles every Swift example of the documentation against the package's modules.

    python3 Scripts/check-doc-examples.py [--root DIR] [--package-path DIR] [--no-build]
                                          [--keep DIR] [--list]

Which examples
  * Every fenced code block whose info string starts with `swift` (```` ```swift ````) in
    `<root>/README.md`, in every Markdown file of a `.docc` catalog under `<root>/Sources`
    (articles and extension pages), and in the doc comments (`///` lines) of every
    `.swift` file under `<root>/Sources`. Blocks in other languages (`sh`, none) are
    ignored.

How an example is compiled
  * Swift 6 language mode, warnings as errors, type checking only (`swiftc -typecheck`;
    nothing is linked or run), against the modules `FutureBridge` and `Reactive` of the
    package at `--package-path` (default: this repository), built first with
    `swift build --build-tests` unless `--no-build` is given.
  * Every example is one file of its own, which imports Foundation (and
    FoundationNetworking where it exists, for URLSession on Linux), Dispatch,
    FutureBridge and Reactive. All the files are checked by one `swiftc` invocation; a
    file that fails there is checked again on its own, and that result counts.
  * Top-level declarations of the block (types, protocols, functions, extensions,
    typealiases, imports) stay at file scope; the ones without an access modifier are
    made `fileprivate`, so that two examples may both declare, say, `ProfileViewModel`.
  * Everything else (statements, expressions, and top-level `let` / `var`) becomes, in
    order, the body of `fileprivate func example() async throws`: an example written as
    a few statements may `await` and `try`, and its top-level `let`s are local
    variables (a top-level `let` / `var` with an access modifier is a declaration).
  * Warnings are errors, except one: a `let` / `var` that the example never reads (an
    example may bind a value only to show what a call returns).
  * A block that starts with `// swift-tools-version:` is a package manifest: it is
    type-checked on its own against the toolchain's PackageDescription (at the version
    it states), not against the package's modules.

Fragments
  * An example should compile as written, with the few declarations it needs written in
    it. A block that deliberately uses names it does not declare says so on the line
    right before its opening fence (blank lines between are allowed), in Markdown:

        <!-- fragment: app -->
        ```swift
        let user = try await fetchUser(id: 7).value
        ```

    and in a doc comment the same lines, each behind `///`. GitHub and DocC render
    nothing for an HTML comment, and DocC reports no warning for it (an info string
    after `swift`, such as ```` ```swift fragment ````, would reach DocC's output as the
    listing's language). The names after `fragment:` (separated by commas) are:

      app       an app's models and services, as the examples assume them:
                `User` (`id`, `name`), `Image`, `Response` (`status`, `body`);
                `api` (futures: `user(id:)`, `avatar(id:)`, `suggestions(for:)`,
                `save(_:)`; async `download(_:)`; callback `fetchUser(id:completion:)`
                returning a cancellable `Request`); `client` (async `user(id:)`);
                `url`, `urls`; `fetch(_:)`, `fetchUser(id:)`, `search(_:)`,
                `translate(_:)` returning futures; `decode(_:)`;
                main-actor `view` (`show(_:)`) and `label` (`text`); `eventLoop`
                (`execute(_:)`), `logger` (`warning(_:)`), `metrics`
                (`increment(_:)`); signals `searchField.text` and `photoIDs`.
      legacy    callback APIs, with `app`: `legacyFetch(_:completion:)`,
                `legacyCancel(_:)`, `legacyLookup(_:completion:)`,
                `LegacyStore.price(of:completion:)`, `legacy` (`fetchUser(id:completion:)`,
                `load(_:completion:)`, `makeDraft(completion:)` with `Draft`, a class
                that is not Sendable), `LegacyRequest` (Sendable: `init(_:)`,
                `start(completion:)`, `cancel()`), and a main-actor `LocationTracker`
                (`onUpdate`, `start()`, `stop()`) of `Location`s.
      grdb      stand-ins for GRDB: `dbPool` with the scoped async `asyncRead` that
                futurebridge-migrate writes, `Database`, `Player.fetchCount(_:)`.
      previous  not a prelude: the block continues the previous swift block of the same
                file, and is compiled as one example with it (and with the preludes it
                names), as a tutorial's steps build on each other.

    The preludes are in PRELUDES below: stand-ins with `fatalError()` bodies, never run.
    A block that names an unknown prelude, or `previous` with no block before it in its
    file, fails.

Output
  For each failing example, `path:line: example failed:` (the line of its opening fence)
  followed by the compiler's diagnostics, their locations mapped back to the Markdown or
  Swift file; then, last, `doc examples: N compiled, M failed`. Exit status 1 when M > 0,
  0 otherwise, 2 when the check itself cannot run (the build fails, no modules, a
  compiler error that belongs to no example). `--list` prints every example found and
  how it would be compiled, without compiling; `--keep DIR` keeps the generated files.

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# --- preludes ---------------------------------------------------------------------------

# Declarations a fragment may name: stand-ins, type-checked only and never run, so their
# bodies are `fatalError()`. Each is Swift at file scope in the example's own file, and
# fileprivate (no clash between two examples' files). A prelude may require others
# (`legacy` uses `app`'s User and url).
PRELUDES: dict[str, tuple[list[str], str]] = {
    "app": (
        [],
        """\
fileprivate struct User: Sendable, Identifiable { var id: Int; var name: String }
fileprivate struct Image: Sendable { var pixels: Data }
fileprivate struct Response: Sendable { var status: Int; var body: Data }
fileprivate final class Request: Sendable { func cancel() { fatalError() } }
fileprivate struct API: Sendable {
    func user(id: Int) -> Future<User> { fatalError() }
    func avatar(id: Int) -> Future<Image> { fatalError() }
    func suggestions(for text: String) -> Future<[String]> { fatalError() }
    func save(_ user: User) -> Future<Void> { fatalError() }
    func download(_ url: URL) async throws -> Data { fatalError() }
    @discardableResult
    func fetchUser(id: Int, completion: @escaping @Sendable (Result<User, any Error>) -> Void) -> Request {
        fatalError()
    }
}
fileprivate struct Client: Sendable { func user(id: Int) async throws -> User { fatalError() } }
fileprivate var api: API { fatalError() }
fileprivate var client: Client { fatalError() }
fileprivate var url: URL { fatalError() }
fileprivate var urls: [URL] { fatalError() }
fileprivate func fetch(_ url: URL) -> Future<Response> { fatalError() }
fileprivate func fetchUser(id: Int) -> Future<User> { fatalError() }
fileprivate func search(_ query: String) -> Future<[String]> { fatalError() }
fileprivate func translate(_ text: String) -> Future<String> { fatalError() }
fileprivate func decode(_ data: Data) throws -> Image { fatalError() }
@MainActor fileprivate final class ImageView { func show(_ image: Image) { fatalError() } }
@MainActor fileprivate final class Label { var text = "" }
@MainActor fileprivate var view: ImageView { fatalError() }
@MainActor fileprivate var label: Label { fatalError() }
fileprivate struct EventLoop: Sendable { func execute(_ job: @escaping @Sendable () -> Void) { fatalError() } }
fileprivate var eventLoop: EventLoop { fatalError() }
fileprivate struct Logger: Sendable { func warning(_ message: String) { fatalError() } }
fileprivate var logger: Logger { fatalError() }
fileprivate struct Metrics: Sendable { func increment(_ name: String) { fatalError() } }
fileprivate var metrics: Metrics { fatalError() }
fileprivate struct SearchField: Sendable { var text: Signal<String> }
fileprivate var searchField: SearchField { fatalError() }
fileprivate var photoIDs: Signal<Int> { fatalError() }
""",
    ),
    "legacy": (
        ["app"],
        """\
fileprivate func legacyFetch(_ id: Int, completion: @escaping @Sendable (String) -> Void) { fatalError() }
fileprivate func legacyCancel(_ id: Int) { fatalError() }
fileprivate func legacyLookup(_ name: String, completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
    fatalError()
}
fileprivate enum LegacyStore {
    static func price(of item: String, completion: @escaping @Sendable (Int?, (any Error)?) -> Void) { fatalError() }
}
fileprivate final class Draft { var text = "" }
fileprivate final class LegacyClient: Sendable {
    func fetchUser(id: Int, completion: @escaping @Sendable (User?, (any Error)?) -> Void) { fatalError() }
    func load(_ url: URL, completion: @escaping @Sendable (Data?, (any Error)?) -> Void) { fatalError() }
    func makeDraft(completion: @escaping @Sendable (Draft) -> Void) { fatalError() }
}
fileprivate var legacy: LegacyClient { fatalError() }
fileprivate final class LegacyRequest: Sendable {
    init(_ url: URL) { fatalError() }
    func start(completion: @escaping @Sendable (Data?, (any Error)?) -> Void) { fatalError() }
    func cancel() { fatalError() }
}
fileprivate struct Location: Sendable { var latitude: Double; var longitude: Double; var course: Double }
@MainActor fileprivate final class LocationTracker {
    var onUpdate: ((Location) -> Void)?
    func start() { fatalError() }
    func stop() { fatalError() }
}
""",
    ),
    "grdb": (
        [],
        """\
fileprivate final class Database {}
fileprivate struct Player { static func fetchCount(_ db: Database) throws -> Int { fatalError() } }
fileprivate final class DatabasePool: Sendable {
    func asyncRead<Output: Sendable>(_ value: @escaping @Sendable (Database) throws -> Output) async throws -> Output {
        fatalError()
    }
}
fileprivate var dbPool: DatabasePool { fatalError() }
""",
    ),
}


def expand(names: list[str]) -> list[str]:
    """The preludes `names` need, each once, the required ones first."""
    ordered: list[str] = []

    def visit(name: str) -> None:
        if name in ordered or name not in PRELUDES:
            return
        for required in PRELUDES[name][0]:
            visit(required)
        ordered.append(name)

    for name in names:
        visit(name)
    return ordered


PREVIOUS = "previous"  # not a prelude: the block continues the one before it

IMPORTS = """\
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import FutureBridge
import Reactive
"""

FRAGMENT_RE = re.compile(r"^\s*<!--\s*fragment:\s*([A-Za-z0-9_,\s-]*?)\s*-->\s*$")
FENCE_RE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
DOC_LINE_RE = re.compile(r"^(\s*///)( ?)(.*)$")
# An example may bind a value only to show what a call returns.
UNUSED_BINDING_RE = re.compile(r"^(initialization of (immutable value|variable) |immutable value |variable )'[^']*' was never used")
DIAG_RE = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note|remark): (.*)$")

# --- finding the examples ---------------------------------------------------------------


@dataclasses.dataclass
class Example:
    path: str  # relative to the root
    fence_line: int  # 1-based line of the opening fence in `path`
    lines: list[str]  # the block's text, one entry per line
    source_lines: list[int]  # 1-based line in `path` of each entry of `lines`
    column_offsets: list[int]  # columns before the block's text on that line
    preludes: list[str]
    index: int = 0
    continues: str | None = None  # location of the block this one continues
    problem: str | None = None

    @property
    def location(self) -> str:
        return f"{self.path}:{self.fence_line}"


def markdown_blocks(lines: list[str]):
    """Yields (fence index, content start, content end, info string, fragment names,
    indentation) for the fenced code blocks in `lines` (CommonMark fences, indented or
    not; not inside block quotes)."""
    i = 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m or (m.group(2)[0] == "`" and "`" in m.group(3)):
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        j = i + 1
        while j < len(lines):
            c = FENCE_RE.match(lines[j])
            if c and c.group(2)[0] == fence[0] and len(c.group(2)) >= len(fence) and not c.group(3).strip():
                break
            j += 1
        fragment = None
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        if k >= 0:
            f = FRAGMENT_RE.match(lines[k])
            if f:
                fragment = [name for name in re.split(r"[\s,]+", f.group(1)) if name]
        yield i, i + 1, j, info, fragment, len(indent)
        i = j + 1


def is_swift(info: str) -> bool:
    return info.split()[0].lower() == "swift" if info else False


def strip_indent(line: str, indent: int) -> tuple[str, int]:
    removed = 0
    while removed < indent and line[removed : removed + 1] == " ":
        removed += 1
    return line[removed:], removed


def examples_in_markdown(path: Path, rel: str) -> list[Example]:
    lines = path.read_text(encoding="utf-8").split("\n")
    found = []
    for fence, start, end, info, fragment, indent in markdown_blocks(lines):
        if not is_swift(info):
            continue
        text, offsets = [], []
        for line in lines[start:end]:
            stripped, removed = strip_indent(line, indent)
            text.append(stripped)
            offsets.append(removed)
        found.append(Example(rel, fence + 1, text, list(range(start + 1, end + 1)), offsets, fragment or []))
    return found


def examples_in_swift(path: Path, rel: str) -> list[Example]:
    lines = path.read_text(encoding="utf-8").split("\n")
    found = []
    i = 0
    while i < len(lines):
        if not DOC_LINE_RE.match(lines[i]):
            i += 1
            continue
        # One doc comment: consecutive `///` lines.
        text, numbers, offsets = [], [], []
        while i < len(lines):
            m = DOC_LINE_RE.match(lines[i])
            if not m:
                break
            text.append(m.group(3))
            numbers.append(i + 1)
            offsets.append(len(m.group(1)) + len(m.group(2)))
            i += 1
        for fence, start, end, info, fragment, indent in markdown_blocks(text):
            if not is_swift(info):
                continue
            block, block_offsets = [], []
            for k in range(start, end):
                stripped, removed = strip_indent(text[k], indent)
                block.append(stripped)
                block_offsets.append(offsets[k] + removed)
            found.append(Example(rel, numbers[fence], block, numbers[start:end], block_offsets, fragment or []))
    return found


def find_examples(root: Path) -> list[Example]:
    examples: list[Example] = []
    readme = root / "README.md"
    if readme.is_file():
        examples += examples_in_markdown(readme, "README.md")
    sources = root / "Sources"
    if sources.is_dir():
        for path in sorted(sources.rglob("*")):
            if not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            if path.suffix == ".md" and any(part.endswith(".docc") for part in path.relative_to(root).parts):
                examples += examples_in_markdown(path, rel)
            elif path.suffix == ".swift":
                examples += examples_in_swift(path, rel)
    for number, example in enumerate(examples, 1):
        example.index = number
    return join_previous(examples)


def join_previous(examples: list[Example]) -> list[Example]:
    """Prefixes each example marked `fragment: previous` with the example before it in
    the same file (itself joined to its own previous one, if marked so)."""
    for k, example in enumerate(examples):
        if PREVIOUS not in example.preludes:
            continue
        names = [name for name in example.preludes if name != PREVIOUS]
        before = examples[k - 1] if k > 0 and examples[k - 1].path == example.path else None
        if before is None:
            example.problem = f"'fragment: {PREVIOUS}' but no earlier swift block in {example.path}"
            example.preludes = names
            continue
        example.lines = before.lines + example.lines
        example.source_lines = before.source_lines + example.source_lines
        example.column_offsets = before.column_offsets + example.column_offsets
        example.preludes = [*before.preludes, *(name for name in names if name not in before.preludes)]
        example.continues = before.location
    return examples


# --- reading Swift just enough to wrap it -----------------------------------------------


def scan(lines: list[str]) -> tuple[list[int], list[bool], list[str]]:
    """For each line: the bracket depth at its start, whether it starts inside a string
    or comment, and its text with comments blanked and string contents replaced by
    spaces (same columns)."""
    text = "\n".join(lines)
    out = list(text)
    n = len(text)
    depth = 0
    # Modes: ("code",), ("linecomment",), ("comment", nesting), ("str", hashes, multiline).
    # An interpolation pushes ("interp", depth, string mode): its `)` at that depth
    # returns to the string.
    stack: list[tuple] = []
    mode: tuple = ("code",)
    line_depth = [0]
    line_literal = [False]
    i = 0

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        ch = text[i]
        if ch == "\n":
            if mode[0] == "linecomment":
                mode = ("code",)
            line_depth.append(depth)
            line_literal.append(mode[0] != "code")
            i += 1
            continue
        kind = mode[0]
        if kind == "linecomment":
            out[i] = " "
            i += 1
        elif kind == "comment":
            if text.startswith("/*", i):
                mode = ("comment", mode[1] + 1)
                blank(i, i + 2)
                i += 2
            elif text.startswith("*/", i):
                blank(i, i + 2)
                i += 2
                mode = ("comment", mode[1] - 1) if mode[1] > 1 else ("code",)
            else:
                out[i] = " " if ch != "\n" else ch
                i += 1
        elif kind == "str":
            hashes, multiline = mode[1], mode[2]
            close = ('"""' if multiline else '"') + "#" * hashes
            escape = "\\" + "#" * hashes
            if text.startswith(escape + "(", i):
                blank(i, i + len(escape) + 1)
                i += len(escape) + 1
                stack.append(("interp", depth, mode))
                depth += 1
                mode = ("code",)
            elif text.startswith(escape, i) and i + len(escape) < n:
                blank(i, i + len(escape) + 1)
                i += len(escape) + 1
            elif text.startswith(close, i):
                i += len(close)
                mode = ("code",)
            else:
                out[i] = " "
                i += 1
        else:  # code
            if text.startswith("//", i):
                mode = ("linecomment",)
                blank(i, i + 2)
                i += 2
                continue
            if text.startswith("/*", i):
                mode = ("comment", 1)
                blank(i, i + 2)
                i += 2
                continue
            m = STRING_START_RE.match(text, i)
            if m and (m.group(1) or ch == '"'):
                mode = ("str", len(m.group(1)), m.group(2) == '"""')
                i = m.end()
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if stack and stack[-1][0] == "interp" and depth == stack[-1][1]:
                    mode = stack.pop()[2]
                    out[i] = " "
            i += 1
    sig = "".join(out).split("\n")
    return line_depth, line_literal, sig


STRING_START_RE = re.compile(r'(#*)("""|")')
ATTRIBUTE_RE = re.compile(r"@[A-Za-z_][A-Za-z0-9_]*(\s*\([^()]*(\([^()]*\)[^()]*)*\))?")
MODIFIERS = {
    "public", "private", "fileprivate", "internal", "package", "open", "final", "static",
    "nonisolated", "indirect", "convenience", "required", "override", "mutating",
    "dynamic", "lazy", "weak", "unowned", "distributed", "consuming", "borrowing",
    "prefix", "postfix", "infix",
}  # fmt: skip
ACCESS = {"public", "private", "fileprivate", "internal", "package", "open"}
DECLARATIONS = {"func", "struct", "class", "enum", "actor", "protocol", "typealias"}
FILE_SCOPE_ONLY = {"extension", "import", "operator", "precedencegroup", "macro"}
CONTINUATION_START = re.compile(
    r"^(\.|\?\?|&&|\|\||\+>|<>|->|==|!=|[-+*/%<>=?:|&^]|else\b|catch\b|where\b|\{|\))"
)
CONTINUATION_END = re.compile(r"(,|\(|\[|\{|=|\+|-|\*|/|&&|\|\||\?\?|\bin|->|\.)$")


@dataclasses.dataclass
class Item:
    lines: list[int]  # indices into the block
    kind: str = "statement"  # statement, binding, declaration, file-scope
    insert: tuple[int, int] | None = None  # (line index, column) for `fileprivate `


def classify(item: Item, sig: list[str]) -> None:
    """Sets the item's kind from its first tokens (attributes and modifiers skipped)."""
    text = "\n".join(sig[k] for k in item.lines)
    position = 0
    modifiers: set[str] = set()
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        attribute = ATTRIBUTE_RE.match(text, position)
        if attribute:
            position = attribute.end()
            continue
        word = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(text, position)
        if not word:
            return
        name = word.group(0)
        if name in MODIFIERS or name == "nonisolated":
            after = word.end()
            if text.startswith("(", after):  # nonisolated(unsafe), private(set)
                close = text.find(")", after)
                after = close + 1 if close >= 0 else after
            modifiers.add(name)
            position = after
            continue
        if name in ("let", "var"):
            # A local, unless an access modifier makes it a file-scope declaration.
            item.kind = "declaration" if modifiers & ACCESS else "binding"
            return
        if name == "actor" and not re.compile(r"\s*[A-Za-z_]").match(text, word.end()):
            return  # `actor.method()`: a statement
        if name in DECLARATIONS:
            item.kind = "declaration"
            if not modifiers & ACCESS:
                item.insert = locate(item, sig, position)
            return
        if name in FILE_SCOPE_ONLY:
            item.kind = "file-scope"
        return


def locate(item: Item, sig: list[str], position: int) -> tuple[int, int]:
    for k in item.lines:
        if position <= len(sig[k]):
            return k, position
        position -= len(sig[k]) + 1
    return item.lines[-1], 0


def split_items(lines: list[str]) -> tuple[list[Item], list[str]]:
    """Splits a block into top-level items: a declaration or a statement with its
    continuation lines (open brackets, `.method` chains, trailing operators), the
    comments and blank lines before it, and the attribute lines before it."""
    depth, literal, sig = scan(lines)
    items: list[Item] = []
    pending: list[int] = []
    current: Item | None = None
    last_code = ""
    for k in range(len(lines)):
        code = sig[k].strip()
        if current is not None and (depth[k] > 0 or literal[k]):
            current.lines += pending + [k]
            pending = []
            last_code = code or last_code
            continue
        if not code:
            pending.append(k)
            continue
        if current is not None and (
            CONTINUATION_START.match(code)
            or CONTINUATION_END.search(last_code)
            or attribute_only_item(current, sig)
        ):
            current.lines += pending + [k]
        else:
            current = Item(pending + [k])
            items.append(current)
        pending = []
        last_code = code
    if pending:
        if current is None:
            items.append(Item(pending))
        else:
            current.lines += pending
    for item in items:
        classify(item, sig)
    return items, sig


def attribute_only_item(item: Item, sig: list[str]) -> bool:
    return not ATTRIBUTE_RE.sub("", "\n".join(sig[k] for k in item.lines)).strip()


# --- generating the files ---------------------------------------------------------------


@dataclasses.dataclass
class Generated:
    example: Example
    manifest: bool
    text: str
    # generated line (1-based) -> (index into example.lines, column shift after insert)
    line_map: dict[int, tuple[int, tuple[int, int] | None]]
    problem: str | None = None


def generate(example: Example) -> Generated:
    lines = example.lines
    first = next((line for line in lines if line.strip()), "")
    if first.startswith("// swift-tools-version:"):
        line_map = {k + 1: (k, None) for k in range(len(lines))}
        return Generated(example, True, "\n".join(lines) + "\n", line_map)

    out: list[str] = []
    line_map: dict[int, tuple[int, tuple[int, int] | None]] = {}

    def emit(text: str, origin: int | None = None, shift: tuple[int, int] | None = None) -> None:
        out.append(text)
        if origin is not None:
            line_map[len(out)] = (origin, shift)

    problem = example.problem
    unknown = [name for name in example.preludes if name not in PRELUDES]
    if unknown and not problem:
        known = ", ".join([*sorted(PRELUDES), PREVIOUS])
        problem = f"unknown prelude {', '.join(unknown)} (known: {known})"
    emit(f"// {example.location}" + (f" (preludes: {', '.join(expand(example.preludes))})" if example.preludes else ""))
    for line in IMPORTS.splitlines():
        emit(line)
    items, _ = split_items(lines)

    def emit_item(item: Item) -> None:
        for k in item.lines:
            text = lines[k]
            shift = None
            if item.insert and item.insert[0] == k:
                column = item.insert[1]
                text = text[:column] + "fileprivate " + text[column:]
                shift = (column, len("fileprivate "))
            emit(text, k, shift)

    for item in items:
        if item.kind == "file-scope" and lines[item.lines[0]].lstrip().startswith("import"):
            emit_item(item)
    for name in expand(example.preludes):
        for line in PRELUDES[name][1].splitlines():
            emit(line)
    for item in items:
        if item.kind in ("declaration", "file-scope") and not (
            item.kind == "file-scope" and lines[item.lines[0]].lstrip().startswith("import")
        ):
            emit_item(item)
    body = [item for item in items if item.kind in ("statement", "binding")]
    if any(any(lines[k].strip() for k in item.lines) for item in body):
        emit("fileprivate func example() async throws {")
        for item in body:
            emit_item(item)
        emit("}")
    return Generated(example, False, "\n".join(out) + "\n", line_map, problem)


# --- compiling --------------------------------------------------------------------------


def run(command: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def fail(message: str) -> None:
    print(f"check-doc-examples: {message}", file=sys.stderr)
    sys.exit(2)


def module_flags(package: Path, build: bool) -> list[str]:
    if build:
        result = run(["swift", "build", "--build-tests", "--package-path", str(package)])
        if result.returncode != 0:
            print(result.stdout, file=sys.stderr)
            fail(f"swift build --build-tests failed in {package}")
    result = run(["swift", "build", "--show-bin-path", "--package-path", str(package)])
    if result.returncode != 0:
        fail(f"swift build --show-bin-path failed in {package}: {result.stdout.strip()}")
    bin_path = Path(result.stdout.strip().splitlines()[-1])
    flags: list[str] = []
    for directory in (bin_path / "Modules", bin_path):
        if (directory / "FutureBridge.swiftmodule").exists():
            flags += ["-I", str(directory)]
            break
    else:
        fail(f"no FutureBridge.swiftmodule in {bin_path} or {bin_path / 'Modules'}: build the package first")
    # C targets' module maps (FutureBridgeAtomics), which the Swift modules import.
    for modulemap in sorted(bin_path.glob("*.build/module.modulemap")):
        flags += ["-Xcc", f"-fmodule-map-file={modulemap}"]
    if (bin_path / "ModuleCache").is_dir():
        flags += ["-module-cache-path", str(bin_path / "ModuleCache")]
    return flags


SWIFTC_FLAGS = ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-diagnostic-style", "llvm"]
# Examples are library files (no top-level code): one file checked alone is not `main.swift`.
LIBRARY_FLAGS = ["-parse-as-library", "-wmo"]


def swiftc() -> str:
    found = shutil.which("swiftc")
    if not found:
        fail("no swiftc on PATH")
    return found


def manifest_flags(text: str) -> list[str]:
    api = Path(os.path.realpath(swiftc())).parent.parent / "lib" / "swift" / "pm" / "ManifestAPI"
    version = re.search(r"swift-tools-version:\s*([0-9]+(?:\.[0-9]+)*)", text)
    flags = ["-I", str(api)]
    if version:
        flags += ["-package-description-version", version.group(1)]
    return flags


def diagnostics(output: str) -> list[list[str]]:
    """Groups the compiler's output into diagnostics: a `file:line:col: kind: message`
    line and the excerpt lines that follow it."""
    groups: list[list[str]] = []
    for line in output.splitlines():
        if DIAG_RE.match(line) or not groups:
            groups.append([line])
        else:
            groups[-1].append(line)
    return groups


@dataclasses.dataclass
class Result:
    failures: dict[str, list[str]]  # generated file -> its diagnostics, mapped
    orphans: list[str]  # diagnostics that belong to no example
    errors: int  # error diagnostics seen, the forgiven ones (unused bindings) included
    status: int
    output: str

    @property
    def silent_failure(self) -> bool:
        """swiftc failed without saying why (it crashed, or could not start)."""
        return self.status != 0 and self.errors == 0


def typecheck(files: list[Path], flags: list[str], cwd: Path, generated: dict[str, "Generated"]) -> Result:
    command = [swiftc(), *SWIFTC_FLAGS, *flags, *[str(f) for f in files]]
    process = run(command, cwd=cwd)
    failures, orphans, errors = attribute(process.stdout, generated)
    return Result(failures, orphans, errors, process.returncode, process.stdout)


def attribute(output: str, generated: dict[str, Generated]) -> tuple[dict[str, list[str]], list[str], int]:
    """Maps the diagnostics back to the examples. Returns the reported lines of each
    generated file that has an error, the diagnostics that belong to no example, and
    how many errors were seen."""
    seen = 0
    per_file: dict[str, list[str]] = {}
    errors: set[str] = set()
    orphans: list[str] = []
    owner: str | None = None  # the file of the last error: its notes follow it
    dropped = False  # the last error was an unused binding, forgiven: drop its notes
    for group in diagnostics(output):
        m = DIAG_RE.match(group[0])
        if not m:
            if any(line.strip() for line in group):
                orphans += group
            continue
        file, line, column, kind, message = m.groups()
        name = Path(file).name
        gen = generated.get(name)
        located = map_location(gen, int(line), int(column), kind, message) if gen else group[0]
        group = [group[0], *excerpt(gen, int(line), group[1:])] if gen else group
        if kind in ("note", "remark"):
            if dropped:
                continue
            target = owner or (name if gen else None)
            if target is None:
                orphans += group
            else:
                per_file.setdefault(target, []).extend([located, *group[1:]])
            continue
        owner, dropped = None, False
        seen += 1
        if gen is None:
            orphans += group
            continue
        if UNUSED_BINDING_RE.search(message):
            dropped = True
            continue
        owner = name
        errors.add(name)
        per_file.setdefault(name, []).extend([located, *group[1:]])
    return {name: per_file[name] for name in errors}, orphans, seen


def excerpt(gen: Generated, line: int, lines: list[str]) -> list[str]:
    """The compiler's excerpt of a line, showing the example's text: without the
    `fileprivate ` the wrapper inserted."""
    origin = gen.line_map.get(line)
    if origin is None or origin[1] is None or not lines:
        return lines
    index, (column, length) = origin
    fixed = [gen.example.lines[index] if lines[0] == gen.text.split("\n")[line - 1] else lines[0]]
    for text in lines[1:]:
        if len(text) > column and not text[column : column + length].strip():
            text = text[:column] + text[column + length :]
        fixed.append(text)
    return fixed


def map_location(gen: Generated, line: int, column: int, kind: str, message: str) -> str:
    example = gen.example
    origin = gen.line_map.get(line)
    if origin is None:
        where = "the wrapper" if not example.preludes else f"the wrapper or prelude {', '.join(example.preludes)}"
        return f"{example.location}: {kind}: {message} (in {where}, generated line {line})"
    index, shift = origin
    if shift and column > shift[0]:
        column = max(column - shift[1], shift[0] + 1)
    column += example.column_offsets[index]
    return f"{example.path}:{example.source_lines[index]}:{column}: {kind}: {message}"


def main() -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=here.parent, help="tree whose documentation is checked")
    parser.add_argument("--package-path", type=Path, default=here.parent, help="package whose modules are used")
    parser.add_argument("--no-build", action="store_true", help="use the modules already built")
    parser.add_argument("--keep", type=Path, help="write the generated files here and keep them")
    parser.add_argument("--list", action="store_true", help="list the examples and how they are wrapped")
    args = parser.parse_args()

    root = args.root.resolve()
    examples = find_examples(root)
    generated = {f"Example{e.index:03d}.swift": generate(e) for e in examples}

    if args.list:
        for name, gen in generated.items():
            kind = "manifest" if gen.manifest else "example"
            notes = []
            if gen.example.preludes:
                notes.append(f"preludes: {', '.join(expand(gen.example.preludes))}")
            if gen.example.continues:
                notes.append(f"continues {gen.example.continues}")
            detail = f" ({'; '.join(notes)})" if notes else ""
            print(f"{gen.example.location}: {kind}, {len(gen.example.lines)} lines -> {name}{detail}")
        print(f"doc examples: {len(examples)} found")
        return 0

    if args.keep:
        work = args.keep.resolve()
        work.mkdir(parents=True, exist_ok=True)
    else:
        work = Path(tempfile.mkdtemp(prefix="doc-examples-"))
    try:
        for name, gen in generated.items():
            (work / name).write_text(gen.text, encoding="utf-8")
        failures: dict[str, list[str]] = {}
        orphans: list[str] = []
        for name, gen in generated.items():
            if gen.problem:
                failures[name] = [f"{gen.example.location}: error: {gen.problem}"]

        def alone(name: str, flags: list[str]) -> None:
            result = typecheck([work / name], flags, work, generated)
            orphans.extend(result.orphans)
            if name in result.failures:
                failures[name] = result.failures[name]
            elif result.silent_failure:
                failures[name] = ["swiftc failed without a diagnostic:", *result.output.splitlines()]

        sources = [n for n, g in generated.items() if not g.manifest and n not in failures]
        if sources:
            flags = LIBRARY_FLAGS + module_flags(args.package_path.resolve(), not args.no_build)
            batch = typecheck([work / n for n in sources], flags, work, generated)
            orphans += batch.orphans
            # A file that fails with the others is checked on its own, and that result
            # counts; if swiftc failed without a word, every file is.
            for name in sources:
                if name in batch.failures or batch.silent_failure:
                    alone(name, flags)
        for name, gen in generated.items():
            if gen.manifest and name not in failures:
                alone(name, manifest_flags(gen.text))

        for name, gen in generated.items():
            if name in failures:
                print(f"{gen.example.location}: example failed:")
                for line in failures[name]:
                    print(f"    {line}")
        if orphans:
            print("check-doc-examples: the compiler reported problems outside the examples:", file=sys.stderr)
            for line in orphans:
                print(f"    {line}", file=sys.stderr)
        print(f"doc examples: {len(examples) - len(failures)} compiled, {len(failures)} failed")
        if orphans:
            return 2
        return 1 if failures else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
