import Foundation
import Testing

/// The modules of the build that runs these tests (FutureBridge, CallSiteTraces and their
/// dependencies), for the tests that compile generated code with `swiftc`. Found in the
/// products directory that holds the test executable, whatever scratch path built it
/// (`--scratch-path .build-werror` as well as `.build`), or else in the package's
/// `.build/debug`.
enum BuiltModules {
    /// `Modules/` (the `.swiftmodule` files) and the module map of FutureBridge's C atomics.
    struct Location {
        var modules: URL
        var atomics: URL
    }

    static let location: Location? = {
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        while directory.path != "/" {
            candidates.append(directory)
            directory.deleteLastPathComponent()
        }
        candidates.append(Paths.package.appendingPathComponent(".build/debug"))
        for products in candidates {
            let location = Location(
                modules: products.appendingPathComponent("Modules"),
                atomics: products.appendingPathComponent("FutureBridgeAtomics.build/module.modulemap"))
            if FileManager.default.fileExists(
                atPath: location.modules.appendingPathComponent("CallSiteTraces.swiftmodule").path),
                FileManager.default.fileExists(atPath: location.atomics.path)
            {
                return location
            }
        }
        return nil
    }()

    /// Whether the compile tests run: the modules are found, or `CI` is set, where a build
    /// the tests cannot find fails them instead of skipping them in silence.
    static var enabled: Bool { location != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    /// The location, or a recorded failure that says why there is none.
    static func require(sourceLocation: SourceLocation = #_sourceLocation) throws -> Location {
        let searched = "above \(CommandLine.arguments[0]) nor in \(Paths.package.path)/.build/debug"
        return try #require(
            location,
            "the build's modules (Modules/CallSiteTraces.swiftmodule, FutureBridgeAtomics.build) were not found \(searched)",
            sourceLocation: sourceLocation)
    }

    /// Runs `swiftc` (Swift 6 mode, warnings as errors) with the build's modules visible and
    /// `arguments` after; returns its exit status and diagnostics.
    static func swiftc(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let location = try require()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "swiftc", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library", "-I",
                location.modules.path, "-Xcc", "-fmodule-map-file=\(location.atomics.path)",
            ] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// A fresh temporary directory, removed after `body`.
    static func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-compile-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }
}
