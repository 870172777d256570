// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "FutureBridge",
    products: [
        .library(name: "FutureBridge", targets: ["FutureBridge"])
    ],
    targets: [
        .target(name: "FutureBridge"),
        .testTarget(name: "FutureBridgeTests", dependencies: ["FutureBridge"]),
        .executableTarget(name: "Tour", dependencies: ["FutureBridge"], path: "Playgrounds/Tour"),
    ],
    swiftLanguageModes: [.v6]
)
