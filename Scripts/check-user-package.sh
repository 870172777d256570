#!/usr/bin/env bash
# Must hold: a user's package that depends on the FutureBridgeTesting product builds.
#
# Writes a small package, as a user would have it, that depends on this repository by
# path (`.package(path:)`): a library target using FutureBridge, and a test target that
# imports FutureBridgeTesting and Swift Testing and uses every tool of it (manual clock
# as a timekeeper and as a Clock, manual executor, diagnostics capture, waitForAwaiters),
# some from the main actor; the same tests again in a target that is main-actor by
# default (as Xcode 26 makes new targets). Then builds it with its tests in Swift 6 mode
# with warnings as errors: `swift build --build-tests`.
#
#   bash Scripts/check-user-package.sh [SCRATCH_DIR]
#
# SCRATCH_DIR (default: .build-user-package in this repository, which git ignores) is
# kept between runs, so that a run after the first rebuilds only what changed. Prints
# the build's output only when it fails; the last line is
# `user package: built with FutureBridgeTesting` or `user package: FAILED (...)`, and
# the exit status 0 or 1. (`swift test --package-path SCRATCH_DIR/UserPackage` runs those
# tests too.)
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-$repo/.build-user-package}
package="$scratch/UserPackage"
mkdir -p "$package/Sources/UserApp" "$package/Tests/UserAppTests" "$package/Tests/UserAppMainActorTests"

# Writes stdin to $1 only when it differs, so that an unchanged file keeps its time
# stamp and is not compiled again.
write() {
    local new
    new=$(cat)
    if [[ ! -f "$1" ]] || [[ "$(cat "$1")" != "$new" ]]; then printf '%s\n' "$new" >"$1"; fi
}

write "$package/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "UserPackage",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    dependencies: [.package(path: "$repo")],
    targets: [
        .target(name: "UserApp", dependencies: [.product(name: "FutureBridge", package: "$(basename "$repo")")]),
        .testTarget(
            name: "UserAppTests",
            dependencies: ["UserApp", .product(name: "FutureBridgeTesting", package: "$(basename "$repo")")]),
        // The same tests built as Xcode 26 builds new targets: main-actor by default.
        .testTarget(
            name: "UserAppMainActorTests",
            dependencies: ["UserApp", .product(name: "FutureBridgeTesting", package: "$(basename "$repo")")],
            swiftSettings: [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]),
    ]
)
MANIFEST

write "$package/Sources/UserApp/Profile.swift" <<'SWIFT'
import Dispatch
import FutureBridge

/// A user's code: a callback API and a lookup with a timeout.
public struct ProfileService: Sendable {
    let timekeeper: Timekeeper

    public init(timekeeper: Timekeeper = .dispatch) {
        self.timekeeper = timekeeper
    }

    public func name(of id: Int, from load: @escaping @Sendable (Int, @escaping @Sendable (Result<String, any Error>) -> Void) -> Void) -> Future<String> {
        Future { promise in load(id, promise.resolve) }.timeout(after: .seconds(5), timekeeper: timekeeper)
    }
}
SWIFT

tests=$(cat <<'SWIFT'
import FutureBridge
import FutureBridgeTesting
import Testing
import UserApp

@Test func aSlowLookupTimesOut() {
    let clock = ManualClock()
    let service = ProfileService(timekeeper: clock.timekeeper)
    let response = Promise<String>()
    let name = service.name(of: 1) { _, completion in response.future.deliver(to: completion) }
    clock.advance(byInterval: .seconds(5))
    #expect(name.peek()?.error is TimeoutError)
    #expect(clock.runUntilIdle() == 0)
    response.succeed("too late")
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func aTimerOnTheManualClock() async throws {
    let clock = ManualClock()
    let timer = Future<Void>.after(.seconds(1), clock: clock)
    await clock.waitForSleepers(count: 1)
    clock.advance(by: .seconds(1))
    try await timer.value
}

@MainActor
@Test func handlersRunWhenTheTestSays() {
    let executor = ManualExecutor()
    let doubled = Future(value: 2).map(on: executor.context) { $0 * 2 }
    #expect(executor.pendingCount == 1)
    executor.runAll()
    #expect(doubled.peek()?.value == 4)
}

@MainActor
@Test func misuseIsCapturedPerTest() async {
    let reports = await withDiagnosticsCapture {
        await Task.yield()
        _ = Promise<Int>()
    }
    #expect(reports.map(\.kind) == [.promiseAbandoned])
    #expect(withDiagnosticsCapture {}.isEmpty)
}

@Test func cancellingOneAwaiter() async throws {
    let promise = Promise<Int>()
    let first = Task { try await promise.future.value }
    let second = Task { try await promise.future.value }
    await promise.future.waitForAwaiters(count: 2)
    first.cancel()
    promise.succeed(1)
    #expect(try await second.value == 1)
}
SWIFT
)
write "$package/Tests/UserAppTests/ProfileTests.swift" <<<"$tests"
write "$package/Tests/UserAppMainActorTests/ProfileTests.swift" <<<"$tests"

log="$scratch/build.log"
start=$SECONDS
if swift build --build-tests --package-path "$package" -Xswiftc -warnings-as-errors >"$log" 2>&1; then
    echo "user package: built with FutureBridgeTesting ($((SECONDS - start)) s, $package)"
else
    cat "$log"
    echo "user package: FAILED (swift build --build-tests in $package; log: $log)"
    exit 1
fi
