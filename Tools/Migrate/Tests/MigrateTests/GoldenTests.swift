import Foundation
import MigrateCore
import Testing

/// The checked-in generated files are exactly what the tool generates today (so the
/// compiled fixtures cannot drift from the tool), and so are the reports.
@Suite("Golden files")
struct GoldenTests {
    @Test("Async forms of the fixtures (compiled in the Fixtures target)")
    func fixtureAsyncForms() throws {
        let result = Migrator(options: MigrationOptions(mode: .asyncForms)).migrate(try fixtureInputs())
        try Golden.checkFiles(result.files, in: Paths.fixtures, mode: .asyncForms)
        try Golden.check(
            result.report(mode: .asyncForms), against: Paths.golden.appendingPathComponent("Fixtures.async-forms.txt"))
    }

    @Test("Legacy shims of the fixtures (compiled in the Fixtures target)")
    func fixtureLegacyShims() throws {
        let result = Migrator(options: MigrationOptions(mode: .legacyShims)).migrate(try fixtureInputs())
        try Golden.checkFiles(result.files, in: Paths.fixtures, mode: .legacyShims)
        try Golden.check(
            result.report(mode: .legacyShims), against: Paths.golden.appendingPathComponent("Fixtures.legacy-shims.txt")
        )
    }

    @Test("A second run finds every async form in place and generates nothing")
    func secondRunIsEmpty() throws {
        let inputs = try sourceInputs(under: Paths.fixtures)
        let result = Migrator(options: MigrationOptions(mode: .asyncForms)).migrate(inputs)
        #expect(result.files.isEmpty)
        #expect(result.generatedCount == 0)
    }

    @Test("Every generated file that needs StreamEnd carries the same small copy of it")
    func streamEndCopies() throws {
        var copies: [String: [String]] = [:]
        for directory in [Paths.fixtures, Paths.grdbWrappers] {
            let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
            while let url = files?.nextObject() as? URL {
                guard url.lastPathComponent.hasSuffix("+Async.swift") else { continue }
                let lines = try String(contentsOf: url, encoding: .utf8).split(
                    separator: "\n", omittingEmptySubsequences: false)
                guard let start = lines.firstIndex(where: { $0.hasPrefix("private final class StreamEnd") }) else {
                    continue
                }
                let end = try #require(lines[start...].firstIndex(of: "}"))
                copies[url.lastPathComponent] = lines[(start - 2)...end].map(String.init)
            }
        }
        #expect(copies.count >= 3)
        let first = try #require(copies.values.first)
        #expect(first.count <= 52)
        for (file, copy) in copies { #expect(copy == first, "\(file)") }
    }

    @Test("GRDB's public API: async forms compiled against GRDB (GRDBWrappers target)")
    func grdbPublicForms() throws {
        let sources = try #require(Paths.grdbSources, "GRDB's checkout was not found; see Paths.grdbSources")
        let options = MigrationOptions(mode: .asyncForms, publicOnly: true, imports: ["GRDB"])
        let result = Migrator(options: options).migrate(try sourceInputs(under: sources))
        try Golden.checkFiles(result.files, in: Paths.grdbWrappers, mode: .asyncForms)
        try Golden.check(
            result.report(mode: .asyncForms), against: Paths.golden.appendingPathComponent("GRDB.public.txt"))
    }

    @Test("GRDB's whole sources, as if migrated in place: the measurement")
    func grdbMeasurement() throws {
        let sources = try #require(Paths.grdbSources, "GRDB's checkout was not found; see Paths.grdbSources")
        let result = Migrator(options: MigrationOptions(mode: .asyncForms)).migrate(try sourceInputs(under: sources))
        try Golden.check(
            result.report(mode: .asyncForms), against: Paths.golden.appendingPathComponent("GRDB.async-forms.txt"))
        // Every file it generates parses back to declarations it knows as async siblings.
        let again = Migrator(options: MigrationOptions(mode: .asyncForms)).migrate(
            try sourceInputs(under: sources) + result.files.map { SourceInput(path: $0.path, text: $0.text) })
        #expect(again.generatedCount == 0)
    }
}
