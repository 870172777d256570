import Foundation

/// Where SwiftPM writes a package's index store, and how to have it written.
public enum IndexStoreLocation {
    /// The index store under a SwiftPM scratch directory (`.build`), if a build with
    /// `--enable-index-store` wrote one: `<scratch>/<triple>/debug/index/store` (or release).
    public static func store(scratchPath: URL) -> URL? {
        let files = FileManager.default
        let candidates = (try? files.contentsOfDirectory(atPath: scratchPath.path))?.sorted() ?? []
        for triple in candidates {
            for configuration in ["debug", "release"] {
                let store = scratchPath.appendingPathComponent(triple).appendingPathComponent(configuration)
                    .appendingPathComponent("index").appendingPathComponent("store")
                var isDirectory: ObjCBool = false
                if files.fileExists(atPath: store.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    return store
                }
            }
        }
        return nil
    }

    /// Builds the package at `packagePath` with `swift build --enable-index-store
    /// --scratch-path <scratchPath>` (the `swift` on `PATH`), and returns its index store.
    /// Throws ``BuildFailure`` with the build's output when it fails or writes no store.
    public static func build(packagePath: URL, scratchPath: URL, extraArguments: [String] = []) throws -> URL {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "swift", "build", "--package-path", packagePath.path, "--scratch-path", scratchPath.path,
                "--enable-index-store",
            ] + extraArguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BuildFailure(status: process.terminationStatus, output: text)
        }
        guard let store = store(scratchPath: scratchPath) else {
            throw BuildFailure(status: 0, output: text + "\nno index store under " + scratchPath.path)
        }
        return store
    }

    /// A build that failed, or wrote no index store.
    public struct BuildFailure: Error, Sendable, CustomStringConvertible {
        /// The build's exit status.
        public var status: Int32
        /// What it printed.
        public var output: String

        /// The status and the output's last lines.
        public var description: String {
            "swift build exited with \(status):\n" + output.split(separator: "\n").suffix(30).joined(separator: "\n")
        }
    }
}
