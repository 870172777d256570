import Foundation
import FutureBridge
import MigrateCore
import Testing

/// Where the package's files are, found from this file's path.
enum Paths {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = package.appendingPathComponent("Tests/Fixtures")
    static let grdbWrappers = package.appendingPathComponent("Tests/GRDBWrappers")
    static let golden = package.appendingPathComponent("Tests/Golden")

    /// GRDB's sources, as SwiftPM checked them out to build this package (or at
    /// `$FUTUREBRIDGE_MIGRATE_GRDB_SOURCES`).
    static var grdbSources: URL? {
        if let path = ProcessInfo.processInfo.environment["FUTUREBRIDGE_MIGRATE_GRDB_SOURCES"] {
            return URL(fileURLWithPath: path)
        }
        return checkout("GRDB.swift/GRDB", containing: "Core/DatabasePool.swift")
    }

    /// A directory of a package SwiftPM checked out for this one (`<scratch>/checkouts/…`):
    /// found above the test executable, or under the package's `.build`.
    static func checkout(_ path: String, containing probe: String) -> URL? {
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        while directory.path != "/" {
            candidates.append(directory)
            directory.deleteLastPathComponent()
        }
        candidates.append(package.appendingPathComponent(".build"))
        for candidate in candidates {
            let sources = candidate.appendingPathComponent("checkouts/" + path)
            if FileManager.default.fileExists(atPath: sources.appendingPathComponent(probe).path) {
                return sources
            }
        }
        return nil
    }
}

/// Golden files: the tests compare the tool's output with checked-in files.
/// `FUTUREBRIDGE_MIGRATE_UPDATE_GOLDEN=1 swift test --package-path Tools/Migrate`
/// rewrites them instead (review the diff before committing).
enum Golden {
    static var updating: Bool { ProcessInfo.processInfo.environment["FUTUREBRIDGE_MIGRATE_UPDATE_GOLDEN"] == "1" }

    /// Compares `actual` with the file at `url` (or writes it, when updating).
    static func check(_ actual: String, against url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if updating {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = (try? String(contentsOf: url, encoding: .utf8)) ?? "<missing>"
        guard actual != expected else { return }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
            zip(actualLines, expectedLines).enumerated().first { $1.0 != $1.1 }?.offset
            ?? min(actualLines.count, expectedLines.count)
        let shown = { (lines: [Substring]) in first < lines.count ? String(lines[first]) : "<end of file>" }
        Issue.record(
            """
            \(url.lastPathComponent) differs from the tool's output at line \(first + 1):
              checked in: \(shown(expectedLines))
              generated:  \(shown(actualLines))
            Regenerate with FUTUREBRIDGE_MIGRATE_UPDATE_GOLDEN=1 and review the diff.
            """, sourceLocation: sourceLocation)
    }

    /// Compares generated files with the checked-in ones under `directory`, both ways:
    /// every generated file must be checked in, and every checked-in generated file
    /// must still be generated.
    static func checkFiles(
        _ files: [GeneratedFile], in directory: URL, mode: MigrationMode,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let checkedIn = try sourceInputs(under: directory).map(\.path).filter {
            $0.hasSuffix(mode.fileSuffix + ".swift")
        }
        if updating {
            for stale in Set(checkedIn).subtracting(files.map(\.path)) {
                try FileManager.default.removeItem(at: directory.appendingPathComponent(stale))
            }
        } else {
            #expect(checkedIn.sorted() == files.map(\.path).sorted(), sourceLocation: sourceLocation)
        }
        for file in files {
            try check(file.text, against: directory.appendingPathComponent(file.path), sourceLocation: sourceLocation)
        }
    }
}

/// The fixtures' hand-written files (not the generated ones), as the tool first saw them.
func fixtureInputs() throws -> [SourceInput] {
    try sourceInputs(under: Paths.fixtures).filter { !Migrator.isGenerated($0.path) }
}

/// Collects FutureBridge's diagnostics for one test; the suites that install it are
/// serialized (the handler is global).
final class DiagnosticsRecorder: Sendable {
    let diagnostics: AsyncStream<Diagnostic>
    private let continuation: AsyncStream<Diagnostic>.Continuation

    init() {
        (diagnostics, continuation) = AsyncStream.makeStream()
        let continuation = continuation
        Diagnostics.setHandler { continuation.yield($0) }
    }

    /// The first diagnostic of `kind` reported from a generated file (waits for it).
    func first(_ kind: Diagnostic.Kind, fromFileEndingIn suffix: String) async -> Diagnostic? {
        for await diagnostic in diagnostics where diagnostic.kind == kind && diagnostic.fileID.hasSuffix(suffix) {
            return diagnostic
        }
        return nil
    }

    func stop() {
        Diagnostics.resetHandler()
        continuation.finish()
    }
}
