// swift-tools-version: 6.2
import PackageDescription

/// `@available(ClockAPI, *)`: where `Clock`, `Duration` and the rest of Swift 5.7's
/// concurrency runtime exist, which the `Duration`/`Clock` forms of the time functions
/// need. Declared once here; `Scripts/check-availability.py` reads it from this file.
let clockAPI = "AvailabilityMacro=ClockAPI:macOS 13, iOS 16, tvOS 16, watchOS 9"
let settings: [SwiftSetting] = [.enableExperimentalFeature(clockAPI)]

let package = Package(
    name: "FutureBridge",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "FutureBridge", targets: ["FutureBridge"]),
        .library(name: "Reactive", targets: ["Reactive"]),
        // For users' tests: manual clock and executor, scoped diagnostics, awaiter counts.
        .library(name: "FutureBridgeTesting", targets: ["FutureBridgeTesting"]),
    ],
    targets: [
        .target(
            name: "FutureBridge", dependencies: ["FutureBridgeInternals", "FutureBridgeAtomics"],
            swiftSettings: settings),
        // The primitives FutureBridge, Reactive and FutureBridgeTesting share through
        // `package` access (the lock, `Locked`, `OnceFlag`, the stored-property address,
        // `IsolatedCall`, the main queue, `FIFOQueue`): not a product.
        .target(name: "FutureBridgeInternals", dependencies: ["FutureBridgeAtomics"], swiftSettings: settings),
        // C11 atomics for every deployment target (the standard library's `Atomic` needs
        // macOS 15 / iOS 18): a target of this package, not a dependency.
        .target(name: "FutureBridgeAtomics"),
        .target(
            name: "Reactive", dependencies: ["FutureBridge", "FutureBridgeInternals", "FutureBridgeAtomics"],
            swiftSettings: settings),
        // Never imported by FutureBridge or Reactive; it reaches two `package` hooks of
        // FutureBridge (the diagnostics capture sink and a future's awaiter count).
        .target(
            name: "FutureBridgeTesting", dependencies: ["FutureBridge", "FutureBridgeInternals"],
            swiftSettings: settings),
        .testTarget(
            name: "FutureBridgeTests",
            dependencies: [
                "FutureBridge", "FutureBridgeInternals", "FutureBridgeTesting", "LoopbackHTTP", "TestSupport",
            ],
            swiftSettings: settings),
        .testTarget(
            name: "FutureBridgeInternalsTests",
            dependencies: ["FutureBridgeInternals", "FutureBridgeAtomics", "TestSupport"]),
        .testTarget(
            name: "ReactiveTests",
            dependencies: ["Reactive", "FutureBridge", "FutureBridgeInternals", "FutureBridgeTesting", "TestSupport"],
            swiftSettings: settings),
        .testTarget(
            name: "FutureBridgeTestingTests",
            dependencies: ["FutureBridgeTesting", "FutureBridge", "FutureBridgeInternals", "TestSupport"],
            swiftSettings: settings),
        // App code using every API from the main actor, twice: a Swift 6 module with
        // `@MainActor` types, and a module built as Xcode 26 builds new apps (unannotated
        // types; AppScenarios.swift is one file, linked into both).
        .testTarget(name: "MainActorAppTests", dependencies: ["FutureBridge", "Reactive"]),
        .testTarget(
            name: "DefaultMainActorAppTests", dependencies: ["FutureBridge", "Reactive"],
            swiftSettings: [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]),
        // Helpers the test targets share: counters, recorders, TestError, stress iterations.
        .target(
            name: "TestSupport", dependencies: ["FutureBridge", "FutureBridgeInternals"], path: "Tests/TestSupport"),
        // A tiny HTTP server on 127.0.0.1, so tests and playgrounds drive a real URLSession.
        .target(
            name: "LoopbackHTTP", dependencies: ["FutureBridge", "FutureBridgeInternals"],
            path: "Playgrounds/Support/LoopbackHTTP"),
        .executableTarget(
            name: "Tour", dependencies: ["FutureBridge", "Reactive", "LoopbackHTTP"], path: "Playgrounds/Tour"),
        .executableTarget(
            name: "MigratingCallbacks", dependencies: ["FutureBridge", "LoopbackHTTP"],
            path: "Playgrounds/MigratingCallbacks"),
        .executableTarget(
            name: "Cancellation", dependencies: ["FutureBridge", "LoopbackHTTP"], path: "Playgrounds/Cancellation"),
        .executableTarget(name: "Streams", dependencies: ["FutureBridge", "Reactive"], path: "Playgrounds/Streams"),
    ],
    swiftLanguageModes: [.v6]
)
