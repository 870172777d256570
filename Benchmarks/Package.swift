// swift-tools-version: 6.0
// Side-by-side benchmarks of FutureBridge and its peers, in one release-build run:
//   swift run -c release --package-path Benchmarks FutureBridgeBenchmarks [--tsv]
// and the allocation gate, allocations per operation checked against budgets:
//   swift run -c release --package-path Benchmarks FutureBridgeAllocations
// The root package has no dependencies; the peers live only here.
import PackageDescription

let package = Package(
    name: "FutureBridgeBenchmarks",
    dependencies: [
        .package(name: "FutureBridge", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
    ],
    targets: [
        .target(name: "CHeapStats"),
        // Replaces malloc and its siblings in the executable that links it: the gate only.
        .target(name: "CMallocCounter"),
        .executableTarget(
            name: "FutureBridgeAllocations",
            dependencies: [
                "CMallocCounter",
                .product(name: "FutureBridge", package: "FutureBridge"),
                .product(name: "Reactive", package: "FutureBridge"),
            ]
        ),
        .executableTarget(
            name: "FutureBridgeBenchmarks",
            dependencies: [
                "CHeapStats",
                .product(name: "FutureBridge", package: "FutureBridge"),
                .product(name: "Reactive", package: "FutureBridge"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
