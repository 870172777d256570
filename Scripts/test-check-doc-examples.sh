#!/usr/bin/env bash
# Self-test of Scripts/check-doc-examples.py.
#
# Builds scratch trees (a README.md, a .docc article, a Swift file with doc comments),
# runs the check on them against this package's modules, and compares its last line,
# its exit status and the locations it reports with what they must be:
#   1. a README with a valid and a broken example: `1 compiled, 1 failed`, exit 1, the
#      broken block reported at its fence line and the error at its own line;
#   2. the same README without the broken example: `1 compiled, 0 failed`, exit 0;
#   3. the other sources and rules: a .docc article and a doc comment, shell blocks
#      ignored, fragments and their preludes, `previous`, an unknown prelude, unused
#      `let`s (accepted) and a `var` never mutated (a warning, so an error), a package
#      manifest.
#
#   bash Scripts/test-check-doc-examples.sh
#
# The first run builds the package (`swift build --build-tests`, nothing to do once
# `swift test` has run); the others reuse the modules. Prints one line per check, then
# `doc examples self-test: N passed, M failed`; exits 1 if any check failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
check="$here/check-doc-examples.py"
# shellcheck source=Scripts/selftest-lib.sh
source "$here/selftest-lib.sh"

output=""
status=0
# run_check TREE [ARGS...]: runs the check on TREE, into $output and $status.
run_check() {
    local tree=$1
    shift
    output=$(python3 "$check" --root "$tree" "$@" 2>&1)
    status=$?
}

# expect NAME LAST_LINE STATUS: the last line and exit status of the last run.
expect() {
    local name=$1 last=$2 want=$3 got
    got=$(printf '%s\n' "$output" | tail -n 1)
    if [ "$got" = "$last" ] && [ "$status" -eq "$want" ]; then
        ok "$name: '$last', exit $want"
    else
        not_ok "$name: expected '$last' and exit $want; got '$got' and exit $status"
        printf '%s\n' "$output" | sed 's/^/       | /'
    fi
}

# expect_line NAME TEXT: the output of the last run has a line starting with TEXT.
expect_line() {
    local name=$1 text=$2 line
    while IFS= read -r line; do
        line=${line#"${line%%[! ]*}"}
        if [[ $line == "$text"* ]]; then
            ok "$name"
            return
        fi
    done <<<"$output"
    not_ok "$name: no line starting with '$text'"
    printf '%s\n' "$output" | sed 's/^/       | /'
}

# expect_no_line NAME TEXT: no line of the last run's output contains TEXT.
expect_no_line() {
    local name=$1 text=$2
    if printf '%s\n' "$output" | grep -qF -- "$text"; then
        not_ok "$name: unexpected '$text'"
        printf '%s\n' "$output" | sed 's/^/       | /'
    else
        ok "$name"
    fi
}

# --- 1 and 2: a README with a valid and a broken example -------------------------------

readme_tree="$work/readme"
mkdir -p "$readme_tree"
valid='# Demo

A valid example:

```swift
import FutureBridge

let promise = Promise<String>()
promise.future.onSuccess { print("got", $0) }
promise.succeed("hello")
```

Shell blocks are not Swift:

```sh
swift build
```
'
broken='
A broken example:

```swift
let promise = Promise<Int>()
promise.succeed("not a number")
```
'
printf '%s%s' "$valid" "$broken" >"$readme_tree/README.md"

run_check "$readme_tree"
expect "README with a valid and a broken example" "doc examples: 1 compiled, 1 failed" 1
expect_line "the broken block is reported at its fence" "README.md:21: example failed:"
expect_line "its error is reported at its own line and column" "README.md:23:17: error:"

printf '%s' "$valid" >"$readme_tree/README.md"
run_check "$readme_tree" --no-build
expect "README with the broken example removed" "doc examples: 1 compiled, 0 failed" 0

# --- 3: the other sources and rules ----------------------------------------------------

tree="$work/sources"
mkdir -p "$tree/Sources/Demo/Demo.docc"
cat >"$tree/README.md" <<'EOF'
# Demo

<!-- fragment: app -->
```swift
let user = try await fetchUser(id: 7).value
```

```swift
let undeclared = try await fetchUser(id: 7).value
```

<!-- fragment: nonsense -->
```swift
let answer = 42
```

```swift
// swift-tools-version: 6.2
import PackageDescription

let package = Package(name: "App", targets: [.target(name: "App")])
```
EOF
cat >"$tree/Sources/Demo/Demo.docc/Article.md" <<'EOF'
# An Article

Steps that build on each other.

```swift
let promise = Promise<Int>()
```

<!-- fragment: previous -->
```swift
promise.succeed(1)
let value = try await promise.future.value
```

```swift
func unused() {
    let value = 1
}
```

```swift
func counter() -> Int {
    var count = 1
    return count
}
```
EOF
cat >"$tree/Sources/Demo/Demo.swift" <<'EOF'
/// A type.
///
/// ```swift
/// let ready = Future(value: 42)
/// ```
public struct Demo {
    /// Makes one.
    ///
    /// ```swift
    /// let number: Int = "forty-two"
    /// ```
    public init() {}
}
EOF

run_check "$tree" --no-build
expect "README, article and doc comments" "doc examples: 6 compiled, 4 failed" 1
expect_line "a block without its prelude fails" "README.md:8: example failed:"
expect_line "an unknown prelude fails" "README.md:13: example failed:"
expect_line "a var never mutated is an error (warnings are errors)" "Sources/Demo/Demo.docc/Article.md:21: example failed:"
expect_line "a doc comment's error is at its source line and column" "Sources/Demo/Demo.swift:10:27: error:"
expect_no_line "a fragment with its prelude compiles" "README.md:4: example failed:"
expect_no_line "a valid doc comment example compiles" "Sources/Demo/Demo.swift:3: example failed:"
expect_no_line "a package manifest compiles" "README.md:17: example failed:"
expect_no_line "'previous' continues the block before it" "Article.md:10: example failed:"
expect_no_line "an unused top-level let is no error" "Article.md:5: example failed:"
expect_no_line "an unused let in a function is no error" "Article.md:15: example failed:"

printf 'doc examples self-test: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
