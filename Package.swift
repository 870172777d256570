// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "FutureBridge",
    products: [
        .library(name: "FutureBridge", targets: ["FutureBridge"])
    ],
    targets: [
        .target(name: "FutureBridge"),
        .testTarget(name: "FutureBridgeTests", dependencies: ["FutureBridge", "LoopbackHTTP"]),
        // A tiny HTTP server on 127.0.0.1, so tests and playgrounds drive a real URLSession.
        .target(name: "LoopbackHTTP", path: "Playgrounds/Support/LoopbackHTTP"),
        .executableTarget(name: "Tour", dependencies: ["FutureBridge", "LoopbackHTTP"], path: "Playgrounds/Tour"),
    ],
    swiftLanguageModes: [.v6]
)
