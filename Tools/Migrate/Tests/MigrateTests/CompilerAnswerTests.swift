import Foundation
import MigrateCore
import Testing

/// Issue 43's defects, each found on real code where the tool guessed from syntax what the
/// compiler knows: with the package's index (``IndexedPackage``), the forms follow the
/// compiler's answers.
@Suite("Forms written from the compiler's answers", .timeLimit(.minutes(5)))
struct CompilerAnswerTests {
    /// The async forms the tool writes for the package's source, given its index.
    static func migrated() throws -> (text: String, entries: [ReportEntry]) {
        let options = MigrationOptions(compilerIndex: try IndexedPackage.require().index)
        let input = SourceInput(path: "Net/Net.swift", text: IndexedPackage.source)
        let result = Migrator(options: options).migrate([input])
        return (result.files.map(\.text).joined(separator: "\n"), result.entries)
    }

    /// The entry of the report for the function declared on the line containing `text`.
    static func entry(_ entries: [ReportEntry], at text: String) throws -> ReportEntry {
        try #require(entries.first { $0.line == IndexedPackage.line(of: text) })
    }

    @Test("A Result behind a generic type alias is thrown, not returned")
    func genericAliasResult() throws {
        let (text, entries) = try Self.migrated()
        #expect(text.contains("func load<T: Decodable & Sendable>(_ path: String) async throws -> T {"))
        #expect(!text.contains("-> NetResult<T>"))
        #expect(try Self.entry(entries, at: "func load<T").outcome == .generated("(Result<T, E>) -> Void"))
    }

    @Test("Two protocols' nested aliases of the same name: each function reads its own")
    func nestedAliases() throws {
        let (text, entries) = try Self.migrated()
        #expect(text.contains("func request(_ url: URL) async throws -> (Data?, URLResponse?) {"))
        #expect(text.contains("func request(_ key: String) async throws -> Data {"))
        #expect(try Self.entry(entries, at: "func request(_ url").outcome == .generated("(A?, B?, Error?) -> Void"))
        #expect(try Self.entry(entries, at: "func request(_ key").outcome == .generated("(T?, Error?) -> Void"))
    }

    @Test("A conformance declared in an extension of another module's type counts")
    func extensionConformance() throws {
        let (text, entries) = try Self.migrated()
        let requirement = try Self.entry(entries, at: "    func fetch(_ path")
        #expect(requirement.outcome == .generated("(Result<T, E>) -> Void"))
        #expect(text.contains("extension Fetching {"))
        #expect(
            try Self.entry(entries, at: "public func fetch(_ path").outcome
                == .skipped(.coveredByProtocol, "`Fetching`"))
    }

    @Test("An opaque parameter (`some P`) reads the same in a requirement and in its implementation")
    func opaqueParameters() throws {
        let (text, entries) = try Self.migrated()
        #expect(text.contains("func load(on scheduler: some Scheduler) async throws -> Int {"))
        #expect(
            try Self.entry(entries, at: "public func load(on scheduler").outcome
                == .skipped(.coveredByProtocol, "`Store`"))
    }

    @Test("Overloads that differ in their response (Void, or a Decodable) each get their form")
    func overloadsByResponse() throws {
        let (text, entries) = try Self.migrated()
        #expect(text.contains("func send(_ endpoint: Endpoint) async throws {"))
        #expect(text.contains("func send<T: Decodable & Sendable>(_ endpoint: Endpoint) async throws -> T {"))
        let sends = entries.filter { $0.function == "API.send(_:completion:)" }
        #expect(sends.count == 2)
        #expect(sends.allSatisfy { $0.outcome == .generated("(Result<T, E>) -> Void") })
    }

    @Test("An override's form would be declared in an extension, which cannot be overridden: the base's serves it")
    func overrideCoveredByBase() throws {
        let (text, entries) = try Self.migrated()
        #expect(try Self.entry(entries, at: "open func refresh").outcome == .generated("(Error?) -> Void"))
        #expect(
            try Self.entry(entries, at: "override public func refresh").outcome
                == .skipped(.coveredByOverridden, "`Base.refresh(completion:)`"))
        #expect(!text.contains("extension Sub {"))
    }

    @Test("The forms written with the index compile with the package's source", .enabled(if: BuiltModules.enabled))
    func formsCompile() throws {
        let (text, _) = try Self.migrated()
        let result = try BuiltModules.withDirectory { directory in
            let source = directory.appendingPathComponent("Net.swift")
            let forms = directory.appendingPathComponent("Net+Async.swift")
            try IndexedPackage.source.write(to: source, atomically: true, encoding: .utf8)
            try text.write(to: forms, atomically: true, encoding: .utf8)
            return try BuiltModules.swiftc(["-typecheck", "-module-name", "Net", source.path, forms.path])
        }
        #expect(result.status == 0, "\(result.output)")
    }
}
