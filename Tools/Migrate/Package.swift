// swift-tools-version: 6.0
// futurebridge-migrate: writes async forms of completion-handler APIs (and completion
// shims for async ones), built on FutureBridge. A package of its own so that the root
// package keeps no dependencies:
//   swift run --package-path Tools/Migrate futurebridge-migrate <sources-dir>
import PackageDescription

let package = Package(
    name: "FutureBridgeMigrate",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "futurebridge-migrate", targets: ["futurebridge-migrate"])
    ],
    dependencies: [
        .package(name: "FutureBridge", path: "../.."),
        // Only SwiftSyntax and SwiftParser are built from swift-syntax (no SwiftSyntaxBuilder,
        // no macros), which keeps a clean build within a few minutes.
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // Test only: a real callback API to migrate and to compile the result against.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // Test only: real codebases whose sources the tests migrate, read from the checkouts:
        // an HTTP client that ships async forms of its own, and swift-nio, whose modules use
        // one another (pinned here, since the golden reports carry its line numbers; only its
        // tiny NIOConcurrencyHelpers is built, so that the dependency is used).
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
    ],
    targets: [
        // The few functions of the toolchain's libIndexStore that the tool calls, declared by
        // hand and loaded with dlopen at run time: no linker flags, no new dependency.
        .target(name: "CIndexStore"),
        .target(
            name: "MigrateCore",
            dependencies: [
                "CIndexStore",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .executableTarget(
            name: "futurebridge-migrate",
            dependencies: [
                "MigrateCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Callback and async APIs written for the tests, with the files the tool generated
        // from them (checked in, compared with a fresh run by the golden tests).
        .target(
            name: "Fixtures",
            dependencies: [.product(name: "FutureBridge", package: "FutureBridge")],
            path: "Tests/Fixtures"
        ),
        // The async forms the tool generated from GRDB's public API, compiled against GRDB.
        // They keep GRDB's `#if` conditions, so this target defines what GRDB's defines.
        .target(
            name: "GRDBWrappers",
            dependencies: [
                .product(name: "FutureBridge", package: "FutureBridge"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/GRDBWrappers",
            swiftSettings: [
                .define("SQLITE_ENABLE_FTS5"),
                .define("SQLITE_ENABLE_SNAPSHOT"),
                .define("SQLITE_DISABLE_SNAPSHOT", .when(platforms: [.linux])),
            ]
        ),
        // The call-site rules' examples as programs, before and after the rewrite, against a fake
        // callback API and the async forms the tool generated for it (checked in, compared with
        // a fresh run by the call-site tests, which run both programs and compare their traces).
        .target(
            name: "CallSiteTraces",
            dependencies: [.product(name: "FutureBridge", package: "FutureBridge")],
            path: "Tests/CallSiteTraces"
        ),
        // A tiny HTTP server on 127.0.0.1 that drives a real URLSession in the tests.
        .target(name: "LoopbackServer", path: "Tests/LoopbackServer"),
        .testTarget(
            name: "MigrateTests",
            dependencies: [
                "MigrateCore", "Fixtures", "GRDBWrappers", "LoopbackServer", "CallSiteTraces",
                .product(name: "FutureBridge", package: "FutureBridge"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
