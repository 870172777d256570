#!/usr/bin/env bash
# Self-test of Scripts/check-availability.py.
#
# Each case below adds one file, Sources/FutureBridge/AvailabilityProbe.swift, to a
# scratch copy of a package and runs the check on it:
#   * "flag" cases (unguarded newer APIs and language features) must make the check fail
#     and name the API in a problem reported for the probe file;
#   * "pass" cases (the same uses guarded, or harmless forms) must add no problem.
# Every case runs against two trees:
#   1. a minimal synthetic package (the declared floor and one clean source file), where
#      the check must exit 1 for a flag case and 0 for a pass case;
#   2. a copy of this repository's Package.swift and Sources/, where only the problems
#      reported for the probe file count (the rest of the sources may still have some).
# A last step checks that the repository's own sources pass, unmodified.
#
#   bash Scripts/test-check-availability.sh
#
# Prints one line per check, then `availability self-test: N passed, M failed`; exits 1 if
# any check failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
check="$here/check-availability.py"
# shellcheck source=Scripts/selftest-lib.sh
source "$here/selftest-lib.sh"

# --- the two trees ---------------------------------------------------------------------

synthetic="$work/synthetic"
mkdir -p "$synthetic/Sources/FutureBridge"
cat >"$synthetic/Package.swift" <<'EOF'
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "FutureBridge",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [.library(name: "FutureBridge", targets: ["FutureBridge"])],
    targets: [
        .target(
            name: "FutureBridge",
            swiftSettings: [
                .enableExperimentalFeature("AvailabilityMacro=ClockAPI:macOS 13, iOS 16, tvOS 16, watchOS 9")
            ])
    ]
)
EOF
cat >"$synthetic/Sources/FutureBridge/Base.swift" <<'EOF'
import Dispatch

/// Uses only what the floor has: Swift concurrency (macOS 10.15, iOS 13).
public final class Base: Sendable {
    public init() {}

    public func run() async throws {
        await Task.yield()
        try await Task.sleep(nanoseconds: 1_000)
        let value = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: 1) }
        }
        _ = value
    }
}
EOF

repository="$work/repository"
mkdir -p "$repository"
cp "$root/Package.swift" "$repository/"
cp -R "$root/Sources" "$repository/"

probe_path="Sources/FutureBridge/AvailabilityProbe.swift"

# --- cases -----------------------------------------------------------------------------

# run_case KIND NAME EXPECTED_TEXT  (the probe's source on standard input)
# KIND is flag or pass; EXPECTED_TEXT is what a flag case's problem line must contain.
run_case() {
    local kind=$1 name=$2 expected=$3 source tree output status mine label
    source=$(cat)
    for tree in "$synthetic" "$repository"; do
        printf '%s\n' "$source" >"$tree/$probe_path"
        output=$(python3 "$check" --root "$tree" 2>&1)
        status=$?
        rm -f "$tree/$probe_path"
        mine=$(printf '%s\n' "$output" | grep -F "$probe_path:" || true)
        label="$kind: $name ($(basename "$tree"))"
        if [ "$kind" = flag ]; then
            if [ $status -eq 1 ] && printf '%s\n' "$mine" | grep -qF -- "$expected"; then
                ok "$label"
            else
                not_ok "$label: expected exit 1 and a problem naming '$expected' in $probe_path; got exit $status"
                printf '%s\n' "$output" | sed 's/^/       | /'
            fi
        else
            if [ -n "$mine" ]; then
                not_ok "$label: expected no problem in $probe_path"
                printf '%s\n' "$mine" | sed 's/^/       | /'
            elif [ "$tree" = "$synthetic" ] && [ $status -ne 0 ]; then
                not_ok "$label: expected exit 0; got exit $status"
                printf '%s\n' "$output" | sed 's/^/       | /'
            else
                ok "$label"
            fi
        fi
    done
}

# Unguarded uses: each must be flagged.

run_case flag "unguarded Atomic<Int>" "'Atomic'" <<'EOF'
import Synchronization

final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
EOF

run_case flag "unguarded Mutex" "'Mutex'" <<'EOF'
import Synchronization

final class Registry: Sendable {
    let names = Mutex<[String]>([])
}
EOF

run_case flag "unguarded Task.sleep(for:)" "sleep(for:)" <<'EOF'
func pause() async throws {
    try await Task.sleep(for: .seconds(1))
}
EOF

run_case flag "unguarded ContinuousClock()" "'ContinuousClock'" <<'EOF'
func elapsed() -> Bool {
    let clock = ContinuousClock()
    return clock.now < clock.now.advanced(by: .seconds(1))
}
EOF

run_case flag "generic struct with a parameter pack" "parameter pack in generic type Pack" <<'EOF'
struct Pack<each T> {
    let values: (repeat each T)
}
EOF

run_case flag "stored @isolated(any) closure property" "@isolated(any)" <<'EOF'
struct Work: Sendable {
    let operation: @isolated(any) @Sendable () -> Void
}
EOF

run_case flag "[@isolated(any) () -> Void] array" "@isolated(any)" <<'EOF'
func collect() -> Int {
    let operations = [@isolated(any) () -> Void]()
    return operations.count
}
EOF

run_case flag "@available too old for the API (macOS 13 guard, Atomic needs 15)" "'Atomic'" <<'EOF'
import Synchronization

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
EOF

run_case flag "use after the #available block ends" "'Mutex'" <<'EOF'
import Synchronization

func later() {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
        let inside = Mutex<Int>(0)
        inside.withLock { $0 += 1 }
    }
    let outside = Mutex<Int>(0)
    outside.withLock { $0 += 1 }
}
EOF

run_case flag "@available(ClockAPI, *) too old for the API (the macro says macOS 13, Atomic needs 15)" "'Atomic'" <<'EOF'
import Synchronization

@available(ClockAPI, *)
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
EOF

# Guarded or harmless forms: each must pass.

run_case pass "@available(ClockAPI, *), the macro Package.swift declares" "" <<'EOF'
@available(ClockAPI, *)
func pause(on clock: ContinuousClock) async throws {
    try await Task.sleep(for: .seconds(1))
    _ = clock.now.advanced(by: Duration.seconds(1))
}
EOF

run_case pass "if #available(ClockAPI, *) { ... }" "" <<'EOF'
func pause() async throws {
    if #available(ClockAPI, *) {
        _ = ContinuousClock().now
        try await Task.sleep(for: .seconds(1))
    } else {
        try await Task.sleep(nanoseconds: 1_000_000_000)
    }
}
EOF

run_case pass "@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) on the enclosing class" "" <<'EOF'
import Synchronization

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class Counter: Sendable {
    let value = Atomic<Int>(0)
    let names = Mutex<[String]>([])
    let operation: @isolated(any) @Sendable () -> Void = {}
}
EOF

run_case pass "if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) { ... }" "" <<'EOF'
func pause() async throws {
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
        let clock = ContinuousClock()
        try await Task.sleep(for: .seconds(1))
        _ = clock.now
    } else {
        try await Task.sleep(nanoseconds: 1_000_000_000)
    }
}
EOF

run_case pass "guard #available(...) else { return } then the use" "" <<'EOF'
import Synchronization

func later() {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { return }
    let lock = Mutex<Int>(0)
    lock.withLock { $0 += 1 }
}
EOF

run_case pass "parameter-pack function" "" <<'EOF'
func all<each T>(_ values: repeat each T) -> (repeat each T) {
    (repeat each values)
}
EOF

run_case pass "@isolated(any) plain parameter" "" <<'EOF'
func run(_ operation: @isolated(any) @Sendable () -> Void) {
    _ = operation.isolation
}
EOF

run_case pass "uses inside comments" "" <<'EOF'
import Synchronization

// let value = Atomic<Int>(0)
/* let lock = Mutex<Int>(0)  /* nested */  try await Task.sleep(for: .seconds(1)) */
/// Measures with `ContinuousClock()`; see ``Atomic``.
func documented() {}
EOF

run_case pass "uses inside string literals" "" <<'EOF'
import Synchronization

let single = "Atomic<Int>(0) and Mutex<Int>(0) and \(1 + 1) ContinuousClock()"
let multi = """
    try await Task.sleep(for: .seconds(1))
    struct Pack<each T> {}
    """
let raw = #"Atomic<Int>(0) "quoted" \(not interpolated)"#
EOF

run_case pass "code for non-Apple platforms only (#if os(Linux))" "" <<'EOF'
#if os(Linux)
    import Synchronization

    let linuxOnly = Atomic<Int>(0)
#endif
EOF

# --- the repository's own sources ------------------------------------------------------

printf '\n'
output=$(python3 "$check" --root "$root" 2>&1)
status=$?
if [ $status -eq 0 ]; then
    ok "the repository's unmodified sources pass the availability check"
else
    not_ok "the repository's unmodified sources do not pass the availability check (exit $status):" \
        "guard the uses below with @available/#available, or replace them (the injection cases above are independent of this)"
    printf '%s\n' "$output" | sed 's/^/       | /'
fi

printf 'availability self-test: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
