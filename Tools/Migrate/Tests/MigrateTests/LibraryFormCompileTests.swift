import Foundation
import MigrateCore
import Testing

/// The README's workflow for a library the app depends on: `futurebridge-migrate
/// PATH/TO/Library --import Library --public-only --output-dir Sources/App/LibraryForms`.
/// Each fixture library is compiled as a module of its own (nonisolated, as a library is),
/// and its forms, generated with those options, as a second module that imports it, with
/// the app settings of ``CallSiteIsolationCompileTests``: the forms' helpers must compile in
/// an app target isolated to the main actor by default although the library is not.
@Suite("Library forms compiled in an app module")
struct LibraryFormCompileTests {
    /// The fixture libraries whose forms are checked in (`X+Async.swift` beside `X.swift`).
    static func libraries() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Paths.fixtures.path)
        return names.filter { $0.hasSuffix("+Async.swift") }.map { String($0.dropLast("+Async.swift".count)) }
            .filter { names.contains($0 + ".swift") }.sorted()
    }

    /// The other fixture files a library's module needs (`Skipped.swift` uses `Connection`).
    static let companions = ["Skipped": ["LegacyShapes"]]

    /// The files of `library`'s module.
    static func sources(of library: String) -> [URL] {
        ([library] + companions[library, default: []]).map { Paths.fixtures.appendingPathComponent($0 + ".swift") }
    }

    /// The library's forms as the README's command writes them.
    static func forms(of library: String) throws -> String? {
        let inputs = try sources(of: library).map {
            SourceInput(path: $0.lastPathComponent, text: try String(contentsOf: $0, encoding: .utf8))
        }
        let options = MigrationOptions(mode: .asyncForms, publicOnly: true, imports: [library])
        let result = Migrator(options: options).migrate(Array(inputs.prefix(1)), context: Array(inputs.dropFirst()))
        return result.files.first?.text
    }

    /// Compiles `library` as a module into `directory`, then `forms` against it to SIL with
    /// each of `settings`; returns the failures.
    static func compile(library: String, forms: String, settings: [[String]], in directory: URL) throws -> [String] {
        let built = try BuiltModules.swiftc(
            [
                "-emit-module", "-module-name", library, "-emit-module-path",
                directory.appendingPathComponent(library + ".swiftmodule").path,
            ] + sources(of: library).map(\.path))
        guard built.status == 0 else { return ["\(library) itself: \(built.output)"] }
        let file = directory.appendingPathComponent(library + "+Async.swift")
        try forms.write(to: file, atomically: true, encoding: .utf8)
        return try settings.compactMap { flags in
            let result = try BuiltModules.swiftc(
                ["-emit-sil", "-o", "/dev/null", "-I", directory.path] + flags + [file.path])
            return result.status == 0 ? nil : "\(library)+Async.swift \(flags): \(result.output)"
        }
    }

    @Test(
        "Each fixture library's public forms compile in a module of their own, with and without the app settings",
        .enabled(if: BuiltModules.enabled))
    func compiles() throws {
        let libraries = try Self.libraries()
        #expect(libraries.contains("StreamingClient") && libraries.contains("PubSubClient"))
        var compiled = 0
        for library in libraries {
            guard let forms = try Self.forms(of: library) else { continue }
            #expect(forms.contains("import \(library)\n"))
            let failures = try BuiltModules.withDirectory { directory in
                try Self.compile(
                    library: library, forms: forms, settings: CallSiteIsolationCompileTests.settings, in: directory)
            }
            for failure in failures { Issue.record(Comment(rawValue: failure)) }
            compiled += 1
        }
        // Stream forms (with their `StreamEnd`) are among them.
        #expect(compiled >= 3)
    }
}
