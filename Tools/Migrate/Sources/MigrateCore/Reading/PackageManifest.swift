import Foundation
import SwiftParser
import SwiftSyntax

/// What a package's manifest says about the target whose sources are migrated.
public enum PackageManifest {
    /// `@MainActor` when the target whose sources are under `sources` declares
    /// `.defaultIsolation(MainActor.self)` in its `swiftSettings`, in the `Package.swift`
    /// of the nearest directory above that has one; nil otherwise (no manifest, another
    /// target, `nonisolated`, or a setting the manifest computes rather than spells).
    public static func defaultIsolation(of sources: URL) -> String? {
        manifest(above: sources).flatMap { defaultIsolation(manifest: $0.text, targetPath: $0.targetPath) }
    }

    /// The Swift language mode of the package above `sources`: 5 with tools before 6.0 unless
    /// the manifest asks for 6 (`swiftLanguageModes`/`swiftLanguageVersions: [.v6]`), 6 from
    /// tools 6.0 unless it asks for 5 (there, or a target's `.swiftLanguageMode(.v5)`); 6 with
    /// no manifest.
    public static func languageMode(of sources: URL) -> Int {
        guard let text = manifest(above: sources)?.text else { return 6 }
        return languageMode(manifest: text)
    }

    static func languageMode(manifest text: String) -> Int {
        // The settings as written, without comments (the tools version's own line is one).
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            if line.contains("swift-tools-version") { return line }
            return line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
        }.joined(separator: "\n")
        let compact = uncommented.filter { !$0.isWhitespace }
        let tools =
            compact.firstRange(of: "swift-tools-version:").map { range in
                Int(compact[range.upperBound...].prefix { $0.isNumber }) ?? 6
            } ?? 6
        // The package's list of modes: SwiftPM builds with the newest the tools know.
        let listed = ["swiftLanguageModes:[", "swiftLanguageVersions:["].compactMap { key in
            compact.firstRange(of: key).map { compact[$0.upperBound...].prefix { $0 != "]" } }
        }.first
        if tools < 6 { return listed?.contains(".v6") ?? false ? 6 : 5 }
        if let listed, !listed.contains(".v6") { return 5 }
        return [".swiftLanguageMode(.v5)", ".swiftLanguageVersion(.v5)"].contains(where: compact.contains) ? 5 : 6
    }

    /// The directory of the nearest `Package.swift` above `sources`.
    public static func packageRoot(above sources: URL) -> URL? {
        manifest(above: sources).map { found in
            URL(fileURLWithPath: String(sources.standardizedFileURL.path.dropLast(found.targetPath.count + 1)))
        }
    }

    /// The text of the nearest `Package.swift` above `sources`, and the path of `sources` in it.
    private static func manifest(above sources: URL) -> (text: String, targetPath: String)? {
        var directory = sources.standardizedFileURL
        for _ in 0..<4 {
            let manifest = directory.appendingPathComponent("Package.swift")
            if let text = try? String(contentsOf: manifest, encoding: .utf8) {
                return (text, String(sources.standardizedFileURL.path.dropFirst(directory.path.count + 1)))
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        return nil
    }

    /// `@MainActor` when the manifest's target at `targetPath` (relative to the package:
    /// its `path:`, or `Sources/<name>` / `Tests/<name>`) declares
    /// `.defaultIsolation(MainActor.self)`.
    static func defaultIsolation(manifest: String, targetPath: String) -> String? {
        final class Finder: SyntaxVisitor {
            var targets: [(name: String, path: String?, mainActor: Bool)] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                let callee = node.calledExpression.trimmedDescription
                guard
                    ["target", "executableTarget", "testTarget", "macro"].contains(where: { callee.hasSuffix("." + $0) }
                    )
                else { return .visitChildren }
                let string = { (label: String) in
                    node.arguments.first { $0.label?.text == label }?.expression.as(StringLiteralExprSyntax.self)?
                        .representedLiteralValue
                }
                guard let name = string("name") else { return .visitChildren }
                let settings = node.arguments.first { $0.label?.text == "swiftSettings" }?.expression
                let mainActor =
                    settings?.tokens(viewMode: .sourceAccurate).map(\.text).joined()
                    .contains(".defaultIsolation(MainActor.self)") ?? false
                targets.append((name, string("path"), mainActor))
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(parseSwift(manifest))
        let trimmed = { (path: String) in path.hasSuffix("/") ? String(path.dropLast()) : path }
        let path = trimmed(targetPath)
        let target = finder.targets.first { target in
            if let declared = target.path { return trimmed(declared) == path }
            return path == "Sources/" + target.name || path == "Tests/" + target.name
        }
        return target?.mainActor == true ? "@MainActor" : nil
    }
}
