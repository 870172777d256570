import Foundation
import SwiftParser
import SwiftSyntax

/// The Swift files under `root` (skipping hidden directories and `.build*`), with paths
/// relative to it, in a stable order.
public func sourceInputs(under root: URL) throws -> [SourceInput] {
    let root = root.standardizedFileURL
    guard
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    else { return [] }
    var inputs: [SourceInput] = []
    let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
    for case let url as URL in enumerator {
        if url.lastPathComponent.hasPrefix(".build") {
            enumerator.skipDescendants()
            continue
        }
        guard url.pathExtension == "swift", url.lastPathComponent != "Package.swift" else { continue }
        let path = url.standardizedFileURL.path
        let relative = path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
        inputs.append(SourceInput(path: relative, text: try String(contentsOf: url, encoding: .utf8)))
    }
    return inputs.sorted { $0.path < $1.path }
}

/// A new file would replace an existing one: nothing was written.
public struct ExistingFilesError: Error, CustomStringConvertible {
    public var paths: [String]

    public init(paths: [String]) {
        self.paths = paths
    }

    public var description: String {
        "refusing to overwrite existing files (nothing was written):\n"
            + paths.map { "  " + $0 }.joined(separator: "\n")
    }
}

/// Writes the new files under `root`, creating directories as needed. Never replaces a
/// file: if any target exists, writes nothing and throws ``ExistingFilesError``.
///
/// - Returns: The files written.
@discardableResult
public func writeNewFiles(_ files: [GeneratedFile], under root: URL) throws -> [URL] {
    let targets = files.map { root.appendingPathComponent($0.path) }
    let existing = targets.filter { FileManager.default.fileExists(atPath: $0.path) }
    guard existing.isEmpty else { throw ExistingFilesError(paths: existing.map(\.path)) }
    for (file, target) in zip(files, targets) {
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        // `.withoutOverwriting`: a file that appeared since the check is not replaced either.
        try Data(file.text.utf8).write(to: target, options: .withoutOverwriting)
    }
    return targets
}

/// `text` parsed as Swift, as deeply nested as the compiler takes it: a parser built for
/// debugging stops at 20 levels of nesting by default (a test's callback pyramid of six
/// calls is deeper) and reports the rest as syntax errors; built for release, at 256.
func parseSwift(_ text: String) -> SourceFileSyntax {
    var text = text
    return text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: 256) }
}
