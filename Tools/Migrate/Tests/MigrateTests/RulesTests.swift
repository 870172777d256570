import Foundation
import MigrateCore
import Testing

/// Every rule's examples (each rule carries its own, in `Sources/MigrateCore/Rules`), run
/// through the whole tool, and the checks that need more than one function.
@Suite("Rules from real code")
struct RulesTests {
    @Test("Every rule carries examples")
    func everyRuleHasExamples() {
        for rule in RuleCatalog.all {
            #expect(!rule.examples.isEmpty, "\(rule) has no example")
            #expect(!rule.summary.isEmpty, "\(rule) has no summary")
        }
    }

    @Test("Each rule's examples", arguments: RuleCatalog.examples.map(\.example))
    func rule(_ rule: RuleExample) throws {
        let result = Migrator(options: rule.options).migrate([SourceInput(path: "API.swift", text: rule.before)])
        let entry = try #require(
            result.entries.first { $0.function == rule.function },
            "not considered:\n\(result.report(mode: .asyncForms))")
        switch rule.after {
        case .generated(let texts, let absent):
            guard case .generated = entry.outcome else {
                Issue.record("not generated: \(entry.description)")
                return
            }
            let text = result.files.map(\.text).joined()
            for expected in texts {
                #expect(text.contains(expected), "missing \(expected) in:\n\(text)")
            }
            for unexpected in absent {
                #expect(!text.contains(unexpected), "unexpected \(unexpected) in:\n\(text)")
            }
        case .skipped(let reason, let detail):
            guard case .skipped(let actual, let actualDetail) = entry.outcome else {
                Issue.record("not skipped: \(entry.description)")
                return
            }
            #expect(actual == reason)
            #expect(detail.isEmpty || actualDetail.contains(detail), "detail: \(actualDetail)")
        }
    }

    @Test("Documentation: a callout's continuation lines go with it; Returns and Throws are written")
    func documentation() throws {
        let source = """
            public final class Object: Sendable {
                /// Saves the object.
                /// - parameter options: The options.
                /// - parameter completion: The block to execute.
                /// It should have the following argument signature: `(Result<Bool, Error>)`.
                /// - warning: Keep this line.
                public func save(options: Int, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {}
            }
            """
        let result = Migrator().migrate([SourceInput(path: "Object.swift", text: source)])
        let text = try #require(result.files.first?.text)
        #expect(!text.contains("argument signature"))
        #expect(!text.contains("The block to execute"))
        #expect(text.contains("/// - parameter options: The options."))
        #expect(text.contains("/// - warning: Keep this line."))
        #expect(text.contains("/// - Returns: The value the handler receives."))
        #expect(text.contains("/// - Throws: The error the handler receives;"))
    }

    @Test("Documentation: cancelling does not stop what nothing stops; a scoped body runs where the handler is called")
    func cancellationDocumentation() throws {
        // The handler of the sources' one function, and what its form's documentation says.
        let cases = [
            (
                "completion: @escaping @Sendable (Result<Int, any Error>) -> Void",
                "Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then dropped."
            ),
            (
                "_ body: @escaping @Sendable (Result<Connection, any Error>) -> Void",
                "It runs on the thread where `run(_:)` calls its handler, not in the caller's isolation, and it may "
                    + "run after the awaiting task is cancelled (what it returns is then dropped)."
            ),
            (
                "_ body: @escaping @MainActor (Result<Connection, any Error>) -> Void",
                "It runs on `@MainActor`, where `run(_:)` calls its handler, and it may run after the awaiting task "
                    + "is cancelled"
            ),
        ]
        for (handler, expected) in cases {
            let source = """
                public final class Connection {}
                public final class Store: Sendable {
                    public func run(\(handler)) {}
                }
                """
            let result = Migrator().migrate([SourceInput(path: "API.swift", text: source)])
            let text = try #require(result.files.first?.text, "\(result.report(mode: .asyncForms))")
            let documentation = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("///") }.map { $0.dropFirst(3).trimmingCharacters(in: .whitespaces) }
                .joined(separator: " ")
            #expect(documentation.contains(expected), "\(documentation)")
        }
    }

    @Test("UncheckedCancelHandle's comment names the closures that cancel through it")
    func uncheckedCancelHandle() throws {
        let source = """
            import Combine
            public final class Feed: Sendable {
                public func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> AnyCancellable {
                    fatalError()
                }
                public func observe(_ handler: @escaping @Sendable (Int) -> Void) -> AnyCancellable { fatalError() }
            }
            """
        let result = Migrator().migrate([SourceInput(path: "Feed.swift", text: source)])
        let text = try #require(result.files.first?.text)
        #expect(text.contains("promise.cancelOnRequest { handle.value.cancel() }"), "\(text)")
        #expect(text.contains("end.onStop { handle.value.cancel() }"), "\(text)")
        let comment = text.split(separator: "\n").prefix {
            !$0.hasPrefix("private nonisolated struct UncheckedCancelHandle")
        }
        .reversed().prefix { $0.hasPrefix("///") }.reversed().map { $0.dropFirst(4) }.joined(separator: " ")
        #expect(
            comment.contains(
                "the `@Sendable` closure given to a stream's `StreamEnd.onStop`, or the `sending` closure given to "
                    + "`cancelOnRequest`, which FutureBridge runs in the caller's isolation"), "\(comment)")
        #expect(comment.contains("the form touches the handle only there after the call that returned it"))
    }

    @Test("A value named after an acronym type reads as Swift names it (`httpResponse`, not `hTTPResponse`)")
    func acronyms() throws {
        let source = """
            public struct HTTPResponse: Sendable { public var error: (any Error)? }
            public final class HTTP: Sendable {
                public func connect(completion: @escaping @Sendable (HTTPResponse) -> Void) {}
            }
            """
        let result = Migrator().migrate([SourceInput(path: "HTTP.swift", text: source)])
        let text = try #require(result.files.first?.text)
        #expect(text.contains("{ httpResponse in"), "\(text)")
    }

    @Test("The summary counts streams, forms with cancellation wired, and what could not be resolved")
    func summary() {
        let source = """
            public final class Token: Sendable { public func cancel() {} }
            public final class API: Sendable {
                public func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Token { Token() }
                public func observe(_ handler: @escaping @Sendable (Int) -> Void) -> Token { Token() }
                public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> RemoteCall {
                    fatalError()
                }
                public func get(_ key: String) -> EventLoopFuture<String> { fatalError() }
                public func set(_ key: String) -> EventLoopFuture<Void> { fatalError() }
            }
            """
        let result = Migrator().migrate([SourceInput(path: "API.swift", text: source)])
        let summary = result.summary(mode: .asyncForms, module: "API")
        #expect(
            summary.hasPrefix(
                "API: 3 completion-handler functions: 3 generated (100%), 1 stream, 2 with cancellation wired, 0 skipped"
            ),
            "\(summary)")
        #expect(summary.contains("not resolved: `RemoteCall`"))
        // Functions that return another library's future are said to exist, and what awaits them.
        #expect(
            summary.contains("  2 other functions return `EventLoopFuture`, another library's future"), "\(summary)")
    }

    @Test("A symbol graph says what the sources cannot: a superclass's cancel() in another module")
    func symbolGraph() throws {
        let source = """
            import Networking
            public final class Upload: NetworkTask, @unchecked Sendable {}
            public final class API: Sendable {
                public func upload(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Upload { fatalError() }
            }
            """
        let without = Migrator().migrate([SourceInput(path: "API.swift", text: source)])
        #expect(without.files.first?.text.contains("not known to have cancel()") == true)

        let graph = try SymbolGraph(json: Data(Self.networkingGraph.utf8))
        #expect(graph.module == "Networking")
        let with = Migrator().migrate([SourceInput(path: "API.swift", text: source)], symbolGraphs: [graph])
        let text = try #require(with.files.first?.text)
        #expect(text.contains("promise.cancelOnRequest { handle.cancel() }"), "\(text)")
    }

    /// A symbol graph as `swift-symbolgraph-extract` writes one (trimmed to what the tool
    /// reads): `open class NetworkTask: Sendable { func cancel() }`.
    static let networkingGraph = """
        {
          "metadata": {"formatVersion": {"major": 0, "minor": 6, "patch": 0}, "generator": "test"},
          "module": {"name": "Networking", "platform": {}},
          "symbols": [
            {"kind": {"identifier": "swift.class", "displayName": "Class"},
             "identifier": {"precise": "s:10Networking11NetworkTaskC", "interfaceLanguage": "swift"},
             "pathComponents": ["NetworkTask"], "names": {"title": "NetworkTask"},
             "declarationFragments": [{"kind": "keyword", "spelling": "class"}, {"kind": "text", "spelling": " "},
                                      {"kind": "identifier", "spelling": "NetworkTask"}],
             "accessLevel": "open"},
            {"kind": {"identifier": "swift.method", "displayName": "Instance Method"},
             "identifier": {"precise": "s:10Networking11NetworkTaskC6cancelyyF", "interfaceLanguage": "swift"},
             "pathComponents": ["NetworkTask", "cancel()"], "names": {"title": "cancel()"},
             "declarationFragments": [{"kind": "keyword", "spelling": "func"}, {"kind": "text", "spelling": " "},
                                      {"kind": "identifier", "spelling": "cancel"}, {"kind": "text", "spelling": "()"}],
             "accessLevel": "open"}
          ],
          "relationships": [
            {"kind": "memberOf", "source": "s:10Networking11NetworkTaskC6cancelyyF", "target": "s:10Networking11NetworkTaskC"},
            {"kind": "conformsTo", "source": "s:10Networking11NetworkTaskC", "target": "s:s8SendableP",
             "targetFallback": "Swift.Sendable"}
          ]
        }
        """
}
