import SwiftSyntax

/// What a handler delivers: its shape (`Result`, `(T?, Error?)`, a value that carries its error...),
/// which says what the form returns and what it throws.
struct ShapeRule: Rule {
    static let summary =
        "The handler's shape says what the form returns and throws, including errors carried in the value."

    func decide(_ closure: ClosureType, in context: RuleContext) -> HandlerShape? {
        HandlerShape(closure, isError: context.index.isError)?.carryingError(context.index)
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a response that carries `result: Result<T, E>`, through a generic type alias",
            before: """
                public struct DataResponse<Success: Sendable, Failure: Error>: Sendable {
                    public let result: Result<Success, Failure>
                }
                public struct AFError: Error {}
                public typealias AFDataResponse<Success: Sendable> = DataResponse<Success, AFError>
                public final class Client: Sendable {
                    public func responseString(completionHandler: @escaping @Sendable (AFDataResponse<String>) -> Void) {}
                }
                """,
            function: "Client.responseString(completionHandler:)",
            after: .generated([
                "func responseString() async throws -> String {",
                "responseString { response in",
                "promise.resolve(response.result)",
            ])),
        RuleExample(
            "a result with `error: Error?`: thrown when set",
            before: """
                public struct HTTPResult: Sendable {
                    public var text: String?
                    public var error: (any Error)?
                }
                public final class HTTP: Sendable {
                    public func get(_ url: String, completion: @escaping @Sendable (HTTPResult) -> Void) {}
                }
                """,
            function: "HTTP.get(_:completion:)",
            after: .generated([
                "get(url) { httpResult in", "if let error = httpResult.error {", "promise.reject(error)",
            ])),
        RuleExample(
            "a nested `Result` elsewhere does not change how Swift's `Result` reads",
            before: """
                public final class PathMonitor: Sendable {
                    public enum Result: Sendable { case up, down }
                }
                public final class API: Sendable {
                    public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.fetch(completion:)",
            after: .generated(["func fetch() async throws -> Int {"])),
        RuleExample(
            "a callback queue is dropped and filled with one that does not hop to main",
            before: """
                import Dispatch
                public final class API: Sendable {
                    public func fetch(id: Int, queue: DispatchQueue = .main,
                                      completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.fetch(id:queue:completion:)",
            after: .generated([
                "func fetch(id: Int) async throws -> Int {",
                "fetch(id: id, queue: .global(), completion: promise.resolve)",
            ])),

        RuleExample(
            "a value that is not Sendable, and not a resource, comes back as `sending`",
            before: """
                public final class Draft { public var text = "" }
                public final class Editor: Sendable {
                    public func makeDraft(completion: @escaping @Sendable (Result<Draft, any Error>) -> Void) {}
                }
                """,
            function: "Editor.makeDraft(completion:)",
            after: .generated([
                "public nonisolated(nonsending) func makeDraft() async throws -> sending Draft {",
                "try await withPromise(of: Draft.self) { promise in",
            ])),
        RuleExample(
            "a generic value not known to be Sendable comes back as `sending` too (no `Value: Sendable` beside it)",
            before: """
                public final class Box<Value>: @unchecked Sendable {
                    public func open(completion: @escaping @Sendable (Result<Value, any Error>) -> Void) {}
                }
                """,
            function: "Box.open(completion:)",
            after: .generated(
                ["public nonisolated(nonsending) func open() async throws -> sending Value {"],
                absent: ["Value: Sendable"])),
        RuleExample(
            "a value that is not Sendable, with a default handler: not plain (it would take `f()` over), not scoped (it would capture calls with a closure)",
            before: """
                public final class Draft { public var text = "" }
                public final class Editor: Sendable {
                    public func open(_ name: String, completion: ((Draft) -> Void)? = nil) {}
                }
                """,
            function: "Editor.open(_:completion:)",
            after: .skipped(.wouldBreakCalls, "would reach the async form instead")),
        RuleExample(
            "a scoped form that the module's own async code would call with a closure",
            before: """
                public final class Database {}
                public final class Pool: Sendable {
                    public func read(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {}
                }
                func caller(pool: Pool) async {
                    pool.read { _ in }
                }
                """,
            function: "Pool.read(_:)",
            after: .skipped(.wouldBreakCalls, "API.swift:6 calls `read(_:)` with a closure from async code")),

    ]
}
