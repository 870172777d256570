import Foundation
import MigrateCore
import Testing

/// One golden per handler shape: the declaration in, the async form out.
struct ShapeCase: CustomTestStringConvertible, Sendable {
    var name: String
    var declaration: String
    var expected: String
    var testDescription: String { name }
}

@Suite("Handler shapes")
struct ShapeTests {
    static let cases: [ShapeCase] = [
        ShapeCase(
            name: "(Result<T, E>) -> Void",
            declaration: "func fetch(id: Int, completion: @escaping @Sendable (Result<User, APIError>) -> Void)",
            expected: """
                    nonisolated(nonsending) func fetch(id: Int) async throws -> User {
                        try await withPromise(of: User.self) { promise in
                            fetch(id: id, completion: promise.resolve)
                        }
                    }
                """),
        ShapeCase(
            name: "(T?, Error?) -> Void",
            declaration: "func load(_ key: String, completion: @escaping @Sendable (Data?, Error?) -> Void)",
            expected: """
                    nonisolated(nonsending) func load(_ key: String) async throws -> Data {
                        try await withPromise(of: Data.self) { promise in
                            load(key, completion: promise.resolve)
                        }
                    }
                """),
        ShapeCase(
            name: "(Error?, T?) -> Void",
            declaration: "func read(callback: @escaping @Sendable ((any Error)?, String?) -> Void)",
            expected: """
                    nonisolated(nonsending) func read() async throws -> String {
                        try await withPromise(of: String.self) { promise in
                            read(callback: promise.resolve)
                        }
                    }
                """),
        ShapeCase(
            name: "(T, Error?) -> Void",
            declaration: "func check(completion: @escaping @Sendable (Bool, Error?) -> Void)",
            expected: """
                    nonisolated(nonsending) func check() async throws -> Bool {
                        try await withPromise(of: Bool.self) { promise in
                            check(completion: promise.resolve)
                        }
                    }
                """),
        ShapeCase(
            name: "(Error?) -> Void",
            declaration: "func save(completion: @escaping @Sendable (Error?) -> Void)",
            expected: """
                    nonisolated(nonsending) func save() async throws {
                        try await withPromise(of: Void.self) { promise in
                            save(completion: promise.resolve)
                        }
                    }
                """),
        ShapeCase(
            name: "(T) -> Void",
            declaration: "func count(completion: @escaping @Sendable (Int) -> Void)",
            expected: """
                    nonisolated(nonsending) func count() async throws -> Int {
                        try await withPromise(of: Int.self) { promise in
                            count(completion: promise.resolve)
                        }
                    }
                """),
        ShapeCase(
            name: "() -> Void",
            declaration: "func ping(completion: @escaping @Sendable () -> Void)",
            expected: """
                    nonisolated(nonsending) func ping() async throws {
                        try await withPromise(of: Void.self) { promise in
                            ping(completion: promise.resolve)
                        }
                    }
                """),
        ShapeCase(
            name: "(A?, B?, Error?) -> Void",
            declaration:
                "func get(_ url: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void)",
            expected: """
                    nonisolated(nonsending) func get(_ url: URL) async throws -> (Data?, URLResponse?) {
                        try await withPromise(of: (Data?, URLResponse?).self) { promise in
                            get(url, completionHandler: promise.resolve)
                        }
                    }
                """),
        ShapeCase(
            name: "success and failure closures",
            declaration:
                "func login(success: @escaping @Sendable (Token) -> Void, failure: @escaping @Sendable (Error) -> Void)",
            expected: """
                    nonisolated(nonsending) func login() async throws -> Token {
                        try await withPromise(of: Token.self) { promise in
                            login(success: promise.resolve, failure: promise.reject)
                        }
                    }
                """),
        ShapeCase(
            name: "returns a URLSessionDataTask: cancelled and resumed",
            declaration:
                "func dataTask(with url: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void) -> URLSessionDataTask",
            expected: """
                        try await withPromise(of: (Data?, URLResponse?).self) { promise in
                            let task = dataTask(with: url, completionHandler: promise.resolve)
                            promise.cancelOnRequest { task.cancel() }
                            task.resume()  // URLSession tasks start suspended.
                        }
                """),
        ShapeCase(
            name: "returns an unknown type: not cancelled, and said so",
            declaration: "func refresh(completion: @escaping @Sendable (Error?) -> Void) -> Receipt",
            expected: """
                            // Not cancelled: `Receipt` is not known to have cancel().
                            _ = refresh(completion: promise.resolve)
                """),
        ShapeCase(
            name: "scoped: a value that is not Sendable stays in the callback",
            declaration: "func read(_ value: @escaping @Sendable (Result<Connection, Error>) -> Void)",
            expected: """
                    nonisolated(nonsending) func read<Output: Sendable>(
                        _ value: @escaping @Sendable (Connection) throws -> Output
                    ) async throws -> Output {
                        try await withPromise(of: Output.self) { promise in
                            read { result in
                                promise.resolve(Result { try value(result.get()) })
                            }
                        }
                    }
                """),
    ]

    @Test("Each shape's async form", arguments: cases)
    func shape(_ shape: ShapeCase) throws {
        let source = """
            import Foundation
            struct User: Sendable {}
            struct Token: Sendable {}
            struct APIError: Error {}
            final class Connection {}
            final class Client: Sendable {
                \(shape.declaration) { fatalError() }
            }
            """
        let result = Migrator().migrate([SourceInput(path: "Client.swift", text: source)])
        let file = try #require(result.files.first, "no async form: \(result.report(mode: .asyncForms))")
        #expect(file.path == "Client+Async.swift")
        #expect(file.text.contains(shape.expected), "generated:\n\(file.text)")
    }

    /// Macro's `_evalAsync(on:_:_:_:)`: `f(x, promise.resolve)` was ambiguous, each
    /// overload's handler taking one of `resolve`'s shapes.
    @Test("Overloads that differ only in the handler's shape: `promise.resolve as` the handler's type")
    func overloadsByHandlerShape() throws {
        let source = """
            public enum Work {
                public static func run<A>(_ f: @escaping (A) throws -> Void, _ a: A, _ done: @escaping @Sendable (Error?) -> Void) {}
                public static func run<A, R>(_ f: @escaping (A) throws -> R, _ a: A, _ done: @escaping (Error?, R?) -> Void) {}
            }
            """
        let result = Migrator().migrate([SourceInput(path: "Work.swift", text: source)])
        let file = try #require(result.files.first, "no async form: \(result.report(mode: .asyncForms))")
        #expect(file.text.contains("run(f, a, promise.resolve as @Sendable (Error?) -> Void)"), "\(file.text)")
        #expect(file.text.contains("run(f, a, promise.resolve as (Error?, R?) -> Void)"), "\(file.text)")
    }

    @Test("A dry run's diff creates the file from /dev/null")
    func diff() {
        let diff = unifiedDiff(creating: "Sources/App/Client+Async.swift", text: "import Foundation\n\nlet x = 1\n")
        #expect(
            diff == """
                --- /dev/null
                +++ Sources/App/Client+Async.swift
                @@ -0,0 +1,3 @@
                +import Foundation
                +
                +let x = 1

                """)
    }

    @Test("Writing refuses to replace an existing file, and then writes nothing")
    func neverOverwrites() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: directory.appendingPathComponent("B+Async.swift"))
        let files = [
            GeneratedFile(path: "A+Async.swift", text: "new"), GeneratedFile(path: "B+Async.swift", text: "new"),
        ]
        #expect(throws: ExistingFilesError.self) { try writeNewFiles(files, under: directory) }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("A+Async.swift").path))
        #expect(try String(contentsOf: directory.appendingPathComponent("B+Async.swift"), encoding: .utf8) == "keep me")

        try FileManager.default.removeItem(at: directory.appendingPathComponent("B+Async.swift"))
        try writeNewFiles(files, under: directory)
        #expect(try String(contentsOf: directory.appendingPathComponent("B+Async.swift"), encoding: .utf8) == "new")
    }

    @Test("Every skip reason of the fixtures is reported with its reason")
    func skipReasons() throws {
        let result = Migrator().migrate(try fixtureInputs())
        let reasons = Set(
            result.entries.compactMap { entry -> SkipReason? in
                if case .skipped(let reason, _) = entry.outcome { return reason }
                return nil
            })
        // Not public: only with --public-only; optional requirement: only with @objc protocols (not on Linux);
        // rejected by the compiler: only from the compile gate (its own tests); covered by the overridden method's
        // form: shown by its rule example and CompilerAnswerTests.
        let expected = Set(SkipReason.allCases).subtracting([
            .notPublic, .optionalRequirement, .hasCompletionSibling, .rejectedByCompiler, .coveredByOverridden,
        ])
        #expect(expected.subtracting(reasons).isEmpty, "never reported: \(expected.subtracting(reasons))")
    }
}
