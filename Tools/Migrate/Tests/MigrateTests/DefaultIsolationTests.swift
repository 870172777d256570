import Foundation
import MigrateCore
import Testing

/// A module built as Xcode 26 builds new apps: `-default-isolation MainActor`. The forms the
/// generator writes into it, compiled with it (to SIL, warnings as errors, with and without
/// `NonisolatedNonsendingByDefault` and `InferIsolatedConformances`); and what the tool
/// reads from a package's manifest.
@Suite("Default isolation: main actor")
struct DefaultIsolationTests {
    /// A module with no isolation attribute where the default gives one: a class (main actor)
    /// with a progress handler whose handle is main-actor isolated too, a free function, a
    /// `nonisolated` type with an event handler, a type nested in its body, an error type, an
    /// actor, and callers from the main actor and from nonisolated code.
    static let module = """
        public final class Loader {
            public func load(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                completion(.success("\\(id)"))
            }
            public func progress(closure: @escaping @Sendable (Double) -> Void) -> Ticket { Ticket() }
        }

        public final class Ticket {
            public func cancel() {}
        }

        public func refresh(completion: @escaping @Sendable ((any Error)?) -> Void) {
            completion(nil)
        }

        public nonisolated final class Client: Sendable {
            public init() {}
            public func get(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
                completion(.success(1))
            }
            public func events(handler: @escaping @Sendable (Int) -> Void) -> Token { Token() }

            public struct Part: Sendable {
                public func ping(completion: @escaping @Sendable ((any Error)?) -> Void) {
                    completion(nil)
                }
            }
        }

        public nonisolated final class Token: Sendable {
            public func cancel() {}
        }

        public enum Failure: Error {
            case lost
            public func explain(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                completion(.success("lost"))
            }
        }

        public actor Store {
            public func count(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
                completion(.success(0))
            }
        }

        func useOnMainActor(loader: Loader, client: Client, part: Client.Part, store: Store) async throws {
            _ = try await loader.load(id: 1)
            _ = try await client.get()
            try await part.ping()
            _ = try await Failure.lost.explain()
            _ = try await store.count()
        }

        nonisolated func useElsewhere(client: Client, part: Client.Part, store: Store) async throws {
            _ = try await client.get()
            for try await _ in client.events() { break }
            try await part.ping()
            _ = try await Failure.lost.explain()
            _ = try await store.count()
        }
        """

    static let settings: [[String]] = CallSiteIsolationCompileTests.settings.filter { $0.contains("MainActor") }

    /// The module with the forms the tool writes for it, as one file (without the imports the
    /// compile adds).
    static func program(options: MigrationOptions) -> (text: String, result: MigrationResult) {
        let result = Migrator(options: options).migrate([SourceInput(path: "Module.swift", text: module)])
        let forms = result.files.map(\.text).joined(separator: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
        return (module + "\n" + forms, result)
    }

    @Test(
        "The forms written into a main-actor-by-default module compile there",
        .enabled(if: BuiltModules.enabled))
    func formsCompile() throws {
        let (text, result) = Self.program(options: .mainActorDefault)
        #expect(result.files.count == 1)
        // A form of each function: the main-actor ones with no attribute, the nonisolated
        // type's with `nonisolated(nonsending)`, its stream form with `nonisolated`.
        #expect(text.contains("    public func load(id: Int) async throws -> String {"))
        #expect(text.contains("    public nonisolated(nonsending) func get() async throws -> Int {"))
        #expect(text.contains("    public nonisolated func events() -> AsyncThrowingStream<Int, any Error> {"))
        #expect(text.contains("\npublic func refresh() async throws {"))
        #expect(text.contains("private nonisolated final class StreamEnd<Element: Sendable>: Sendable {"))
        // `Ticket` is main-actor isolated by default: the stream's end could not cancel it.
        #expect(
            result.report(mode: .asyncForms, module: nil).contains(
                "`Ticket.cancel()` is isolated to `@MainActor`, and the stream's end is not"))
        for flags in Self.settings {
            let compiled = try CallSiteIsolationCompileTests.compile(text, flags: flags)
            #expect(compiled.status == 0, "\(flags): \(compiled.output)\n\(text)")
        }
    }

    /// The check can fail: the same module's forms, written as for a nonisolated module, do
    /// not compile in it (a `nonisolated(nonsending)` form calls a main-actor method).
    @Test(
        "Forms written without the option do not compile in the module",
        .enabled(if: BuiltModules.enabled))
    func formsWithoutTheOptionFail() throws {
        let (text, _) = Self.program(options: MigrationOptions())
        let compiled = try CallSiteIsolationCompileTests.compile(text, flags: Self.settings[0])
        #expect(compiled.status != 0)
        #expect(compiled.output.contains("main actor-isolated"), "\(compiled.output)")
    }

    /// Where the tool and the compiler say the default leaves a declaration nonisolated:
    /// each function's name ends in `Main` or `Free`.
    static let placements = """
        public final class Plain { public func plainMain(_ done: @escaping @Sendable (Int) -> Void) {} }
        public struct Shared: Sendable { public func sharedMain(_ done: @escaping @Sendable (Int) -> Void) {} }
        public nonisolated struct Loose {
            public func looseFree(_ done: @escaping @Sendable (Int) -> Void) {}
            public struct Inner { public func innerFree(_ done: @escaping @Sendable (Int) -> Void) {} }
        }
        extension Loose { public func looseExtensionMain(_ done: @escaping @Sendable (Int) -> Void) {} }
        public enum Failed: Error {
            case lost
            public func failedFree(_ done: @escaping @Sendable (Int) -> Void) {}
            public struct Detail { public func detailFree(_ done: @escaping @Sendable (Int) -> Void) {} }
        }
        extension Failed { public func failedExtensionFree(_ done: @escaping @Sendable (Int) -> Void) {} }
        public struct Late {}
        extension Late: Error { public func lateMain(_ done: @escaping @Sendable (Int) -> Void) {} }
        extension String { public func stringMain(_ done: @escaping @Sendable (Int) -> Void) {} }
        nonisolated extension Int { public func intFree(_ done: @escaping @Sendable (Int) -> Void) {} }
        public func globalMain(_ done: @escaping @Sendable (Int) -> Void) {}
        public nonisolated func globalFree(_ done: @escaping @Sendable (Int) -> Void) {}
        """

    static let calls: [(name: String, call: String)] = [
        ("plainMain", "Plain().plainMain { _ in }"), ("sharedMain", "Shared().sharedMain { _ in }"),
        ("looseFree", "Loose().looseFree { _ in }"), ("innerFree", "Loose.Inner().innerFree { _ in }"),
        ("looseExtensionMain", "Loose().looseExtensionMain { _ in }"),
        ("failedFree", "Failed.lost.failedFree { _ in }"),
        ("detailFree", "Failed.Detail().detailFree { _ in }"),
        ("failedExtensionFree", "Failed.lost.failedExtensionFree { _ in }"), ("lateMain", "Late().lateMain { _ in }"),
        ("stringMain", "\"\".stringMain { _ in }"), ("intFree", "1.intFree { _ in }"),
        ("globalMain", "globalMain { _ in }"), ("globalFree", "globalFree { _ in }"),
    ]

    /// The tool's reading against the compiler's: each form is `nonisolated(nonsending)`
    /// exactly where the name says `Free`; from nonisolated code, the compiler lets the
    /// `Free` functions be called synchronously and refuses each `Main` one.
    @Test(
        "What the default leaves nonisolated: the tool reads it as the compiler does",
        .enabled(if: BuiltModules.enabled))
    func placementsMatchTheCompiler() throws {
        let result = Migrator(options: .mainActorDefault).migrate([
            SourceInput(path: "Module.swift", text: Self.placements)
        ])
        let forms = result.files.map(\.text).joined()
        for (name, _) in Self.calls {
            let isolated = forms.contains("public func \(name)() async throws -> Int {")
            let nonisolated = forms.contains("public nonisolated(nonsending) func \(name)() async throws -> Int {")
            #expect(name.hasSuffix("Main") ? isolated && !nonisolated : nonisolated && !isolated, "\(name)")
        }
        let free = Self.calls.filter { $0.name.hasSuffix("Free") }.map { "    " + $0.call }
        let main = Self.calls.filter { $0.name.hasSuffix("Main") }.map { "    " + $0.call }
        let probe = { (calls: [String]) in
            Self.placements + "\nnonisolated func probe() {\n" + calls.joined(separator: "\n") + "\n}\n"
        }
        let freeCompiled = try CallSiteIsolationCompileTests.compile(probe(free), flags: Self.settings[0])
        #expect(freeCompiled.status == 0, "\(freeCompiled.output)")
        let mainCompiled = try CallSiteIsolationCompileTests.compile(probe(main), flags: Self.settings[0])
        let refused = mainCompiled.output.split(separator: "\n").filter {
            $0.contains("error: call to main actor-isolated") && !$0.contains("`-")
        }
        #expect(refused.count == main.count, "\(mainCompiled.output)")
    }

    @Test("A Package.swift target with .defaultIsolation(MainActor.self) is detected; other targets are not")
    func manifest() throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("default-isolation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: package) }
        for directory in ["Sources/App", "Sources/Core", "Sources/Custom/Code"] {
            try FileManager.default.createDirectory(
                at: package.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        try """
        // swift-tools-version: 6.2
        import PackageDescription

        let package = Package(
            name: "App",
            targets: [
                .target(name: "App", swiftSettings: [.defaultIsolation(MainActor.self), .swiftLanguageMode(.v6)]),
                .target(name: "Core"),
                .target(
                    name: "Custom", path: "Sources/Custom/Code",
                    swiftSettings: [
                        .defaultIsolation(MainActor.self)
                    ]),
            ]
        )
        """.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        #expect(PackageManifest.defaultIsolation(of: package.appendingPathComponent("Sources/App")) == "@MainActor")
        #expect(PackageManifest.defaultIsolation(of: package.appendingPathComponent("Sources/Core")) == nil)
        #expect(
            PackageManifest.defaultIsolation(of: package.appendingPathComponent("Sources/Custom/Code")) == "@MainActor")
        #expect(PackageManifest.defaultIsolation(of: package) == nil)
    }
}
