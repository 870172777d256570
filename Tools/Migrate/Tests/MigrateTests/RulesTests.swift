import Foundation
import MigrateCore
import Testing

/// One decision of the tool, on the smallest sources that show it: what real libraries do
/// that a careful engineer writing the wrappers by hand would get right.
struct RuleCase: CustomTestStringConvertible, Sendable {
    enum Expectation: Sendable {
        /// The function's form contains each of these texts (and none of `absent`).
        case generated([String], absent: [String] = [])
        /// The function is skipped for this reason, with this in the detail.
        case skipped(SkipReason, String)
    }

    var name: String
    var source: String
    /// The function the case is about, as the report names it (`Owner.name(labels:)`).
    var function: String
    var expectation: Expectation
    var options = MigrationOptions()
    var testDescription: String { name }
}

@Suite("Rules from real code")
struct RulesTests {
    static let cases: [RuleCase] = [
        // MARK: Cancellation
        RuleCase(
            name: "`-> Self` with cancel() inherited from the base class",
            source: """
                open class Request: @unchecked Sendable {
                    @discardableResult public func cancel() -> Self { self }
                }
                public final class DataRequest: Request, @unchecked Sendable {
                    @discardableResult
                    public func response(completionHandler: @escaping @Sendable (Int) -> Void) -> Self { self }
                }
                """,
            function: "DataRequest.response(completionHandler:)",
            expectation: .generated([
                "let handle = response(completionHandler: promise.resolve)",
                "promise.cancelOnRequest { _ = handle.cancel() }",
                "@discardableResult",
            ])),
        RuleCase(
            name: "cancel() declared by a protocol the handle conforms to",
            source: """
                public protocol Cancellable: Sendable { func cancel() }
                public final class Token: Cancellable { public func cancel() {} }
                public final class API: Sendable {
                    public func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Token { Token() }
                }
                """,
            function: "API.load(completion:)",
            expectation: .generated(["promise.cancelOnRequest { handle.cancel() }"])),
        RuleCase(
            name: "invalidate() stops a handle that has no cancel()",
            source: """
                public final class Call: Sendable { public func invalidate() {} }
                public final class API: Sendable {
                    public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Call { Call() }
                }
                """,
            function: "API.fetch(completion:)",
            expectation: .generated(["promise.cancelOnRequest { handle.invalidate() }"])),
        RuleCase(
            name: "a handle of another module with no symbol graph: not cancelled, and said so",
            source: """
                public final class API: Sendable {
                    public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> RemoteCall {
                        fatalError()
                    }
                }
                """,
            function: "API.fetch(completion:)",
            expectation: .generated([
                "// Not cancelled: `RemoteCall` is not known to have cancel().",
                "Cancelling the awaiting task ends the wait but does not stop the operation",
            ])),

        // MARK: Existing async APIs
        RuleCase(
            name: "an async form that drops the callback queue already exists",
            source: """
                import Dispatch
                public final class Object: Sendable {
                    public func save(options: Int = 0, callbackQueue: DispatchQueue = .main,
                                     completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {}
                    public func save(options: Int = 0) async throws -> Bool { true }
                }
                """,
            function: "Object.save(options:callbackQueue:completion:)",
            expectation: .skipped(.hasAsyncSibling, "`Object.save(options:) async`")),
        RuleCase(
            name: "an async form with the same labels in another order",
            source: """
                public final class Login: Sendable {
                    public func login(user: String, token: String, completion: @escaping @Sendable (Result<Bool, any Error>) -> Void) {}
                    public func login(token: String, user: String) async throws -> Bool { true }
                }
                """,
            function: "Login.login(user:token:completion:)",
            expectation: .skipped(.hasAsyncSibling, "login(token:user:) async")),
        RuleCase(
            name: "@available(*, renamed:) names the async form",
            source: """
                public final class API: Sendable {
                    @available(*, renamed: "fetch()")
                    public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.fetch(completion:)",
            expectation: .skipped(.hasAsyncSibling, "names its async form `fetch()`")),
        RuleCase(
            name: "a stream-returning function with the same base name serves a progress handler",
            source: """
                import Dispatch
                open class Request: @unchecked Sendable {
                    @discardableResult public func cancel() -> Self { self }
                    public func downloadProgress(queue: DispatchQueue = .main, closure: @escaping @Sendable (Double) -> Void) -> Self { self }
                    public func downloadProgress(bufferingPolicy: Int = 0) -> AsyncStream<Double> { fatalError() }
                }
                """,
            function: "Request.downloadProgress(queue:closure:)",
            expectation: .skipped(.hasAsyncSibling, "downloadProgress(bufferingPolicy:)")),

        // MARK: Multi-shot handlers
        RuleCase(
            name: "a progress handler on a request becomes a stream that cancels the request when it ends",
            source: """
                import Dispatch
                open class Request: @unchecked Sendable {
                    @discardableResult public func cancel() -> Self { self }
                    public func uploadProgress(queue: DispatchQueue = .main, closure: @escaping @Sendable (Double) -> Void) -> Self { self }
                }
                """,
            function: "Request.uploadProgress(queue:closure:)",
            expectation: .generated([
                "public func uploadProgress() -> AsyncThrowingStream<Double, any Error> {",
                "let handle = uploadProgress(queue: DispatchQueue(label: \"Request.uploadProgress\")) { value in",
                "continuation.onTermination = { _ in _ = handle.cancel() }",
            ])),
        RuleCase(
            name: "an observation token: the stream's end cancels it; an error handler finishes the stream",
            source: """
                public final class Observation: Sendable { public func cancel() {} }
                public struct Query: Sendable {
                    public func start(onError: @escaping @Sendable (any Error) -> Void,
                                      onChange: @escaping @Sendable (Int) -> Void) -> Observation { Observation() }
                }
                """,
            function: "Query.start(onError:onChange:)",
            expectation: .generated([
                "public func start() -> AsyncThrowingStream<Int, any Error> {",
                "let finish: @Sendable (any Error) -> Void = { continuation.finish(throwing: $0) }",
                "let handle = start(onError: finish) { value in",
                "continuation.onTermination = { _ in handle.cancel() }",
            ])),
        RuleCase(
            name: "a throwing function's stream: made before the call, which throws out of the form",
            source: """
                public final class Token: Sendable { public func cancel() {} }
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (Int) -> Void) throws -> Token { Token() }
                }
                """,
            function: "Feed.observe(_:)",
            expectation: .generated(
                [
                    """
                        public func observe() throws -> AsyncThrowingStream<Int, any Error> {
                            let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
                            let handle = try observe { value in
                                continuation.yield(value)
                            }
                            continuation.onTermination = { _ in handle.cancel() }
                            return stream
                        }
                    """
                ], absent: ["AsyncThrowingStream {"])),
        RuleCase(
            name: "a handler the body keeps among listeners is multi-shot, whatever the names say",
            source: """
                public final class Token: Sendable { public func cancel() {} }
                public final class Sensor: @unchecked Sendable {
                    var listeners: [@Sendable (Double) -> Void] = []
                    public func read(_ handler: @escaping @Sendable (Double) -> Void) -> Token {
                        listeners.append(handler)
                        return Token()
                    }
                }
                """,
            function: "Sensor.read(_:)",
            expectation: .generated([
                "public func read() -> AsyncThrowingStream<Double, any Error> {",
                "continuation.onTermination = { _ in handle.cancel() }",
            ])),
        RuleCase(
            name: "a multi-shot handler with nothing to stop it: skipped, never a one-shot form",
            source: """
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (String) -> Void) {}
                }
                """,
            function: "Feed.observe(_:)",
            expectation: .skipped(.eventHandler, "stops the handler")),
        RuleCase(
            name: "--one-shot: a name that says events, taken as a completion",
            source: """
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (String) -> Void) {}
                }
                """,
            function: "Feed.observe(_:)",
            expectation: .generated(["public nonisolated(nonsending) func observe() async throws -> String {"]),
            options: MigrationOptions(oneShot: ["Feed.observe"])),
        RuleCase(
            name: "--multi-shot: a completion name, taken as events",
            source: """
                public final class Token: Sendable { public func cancel() {} }
                public final class Feed: Sendable {
                    public func fetch(completion: @escaping @Sendable (String) -> Void) -> Token { Token() }
                }
                """,
            function: "Feed.fetch(completion:)",
            expectation: .generated(["public func fetch() -> AsyncThrowingStream<String, any Error> {"]),
            options: MigrationOptions(multiShot: ["fetch(completion:)"])),

        // MARK: Isolated stoppers
        RuleCase(
            name: "a @MainActor start…/stop… pair: the stream's end cannot call stop…(), so no stream",
            source: """
                @MainActor public final class Monitor {
                    public func startMonitoring(onUpdatePerforming handler: @escaping @Sendable (Int) -> Void) {}
                    public func stopMonitoring() {}
                }
                """,
            function: "Monitor.startMonitoring(onUpdatePerforming:)",
            expectation: .skipped(
                .eventHandler, "`Monitor.stopMonitoring()` is isolated to `@MainActor`, and the stream's end is not")),
        RuleCase(
            name: "a @MainActor start…/stop… pair of a one-shot function: not cancelled, and said so",
            source: """
                @MainActor public final class Loader {
                    public func startLoading(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                    public func stopLoading() {}
                }
                """,
            function: "Loader.startLoading(completion:)",
            expectation: .generated(
                [
                    "// Not cancelled: `Loader.stopLoading()` is isolated to `@MainActor`, and the cancel handler is not.",
                    "    public func startLoading() async throws -> Int {",
                    "is not.\n            startLoading(completion: promise.resolve)\n",
                ], absent: ["cancelOnRequest", "self.stopLoading()"])),
        RuleCase(
            name: "an actor's cancel(): not called from the cancel handler, and said so",
            source: """
                public actor Job { public func cancel() {} }
                public final class API: Sendable {
                    public func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Job {
                        fatalError()
                    }
                }
                """,
            function: "API.load(completion:)",
            expectation: .generated(
                ["// Not cancelled: `Job.cancel()` is isolated to the actor `Job`, and the cancel handler is not."],
                absent: ["cancelOnRequest", "handle.cancel()"])),
        RuleCase(
            name: "an actor's cancel(): the stream's end cannot call it, so no stream",
            source: """
                public actor Subscription { public func cancel() {} }
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (Int) -> Void) -> Subscription { fatalError() }
                }
                """,
            function: "Feed.observe(_:)",
            expectation: .skipped(.eventHandler, "`Subscription.cancel()` is isolated to the actor `Subscription`")),
        RuleCase(
            name: "a nonisolated cancel() of a @MainActor handle is called from any thread",
            source: """
                @MainActor public final class Token { nonisolated public func cancel() {} }
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (Int) -> Void) -> Token { fatalError() }
                }
                """,
            function: "Feed.observe(_:)",
            expectation: .generated(["continuation.onTermination = { _ in handle.cancel() }"])),
        RuleCase(
            name: "an async stop…(): the stream's end cannot await it, so no stream",
            source: """
                public final class Sensor: Sendable {
                    public func startReading(onUpdatePerforming handler: @escaping @Sendable (Double) -> Void) {}
                    public func stopReading() async {}
                }
                """,
            function: "Sensor.startReading(onUpdatePerforming:)",
            expectation: .skipped(
                .eventHandler, "`Sensor.stopReading()` is async, and the stream's end cannot await it")),

        // MARK: Existing calls
        RuleCase(
            name: "a form named like an existing synchronous function would make its calls async",
            source: """
                open class Download: @unchecked Sendable {
                    @discardableResult public func cancel() -> Self { self }
                    public func cancel(byProducingResumeData completionHandler: @escaping @Sendable (String?) -> Void) -> Self { self }
                }
                """,
            function: "Download.cancel(byProducingResumeData:)",
            expectation: .skipped(.wouldBreakCalls, "`Download.cancel()` reaches `cancel()`")),
        RuleCase(
            name: "a handler with a default value: the original already answers the form's call",
            source: """
                public final class Store: Sendable {
                    public func flush(completion: (@Sendable ((any Error)?) -> Void)? = nil) {}
                }
                """,
            function: "Store.flush(completion:)",
            expectation: .skipped(.wouldBreakCalls, "reaches `flush(completion:)`")),
        RuleCase(
            name: "a property with the form's name",
            source: """
                public final class Request: Sendable {
                    public var response: Int? { nil }
                    public func response(completionHandler: @escaping @Sendable (Int) -> Void) {}
                }
                """,
            function: "Request.response(completionHandler:)",
            expectation: .skipped(.wouldBreakCalls, "`Request.response` is a property")),
        RuleCase(
            name: "a parameter named like the method: the call says `self.`",
            source: """
                public final class Session: Sendable {
                    public func task(_ task: String, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "Session.task(_:completion:)",
            expectation: .generated(["self.task(task, completion: promise.resolve)"])),

        // MARK: Values and errors
        RuleCase(
            name: "a response that carries `result: Result<T, E>`, through a generic type alias",
            source: """
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
            expectation: .generated([
                "func responseString() async throws -> String {",
                "responseString { response in",
                "promise.resolve(response.result)",
            ])),
        RuleCase(
            name: "a result with `error: Error?`: thrown when set",
            source: """
                public struct HTTPResult: Sendable {
                    public var text: String?
                    public var error: (any Error)?
                }
                public final class HTTP: Sendable {
                    public func get(_ url: String, completion: @escaping @Sendable (HTTPResult) -> Void) {}
                }
                """,
            function: "HTTP.get(_:completion:)",
            expectation: .generated([
                "get(url) { httpResult in", "if let error = httpResult.error {", "promise.reject(error)",
            ])),
        RuleCase(
            name: "a nested `Result` elsewhere does not change how Swift's `Result` reads",
            source: """
                public final class PathMonitor: Sendable {
                    public enum Result: Sendable { case up, down }
                }
                public final class API: Sendable {
                    public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.fetch(completion:)",
            expectation: .generated(["func fetch() async throws -> Int {"])),
        RuleCase(
            name: "a callback queue is dropped and filled with one that does not hop to main",
            source: """
                import Dispatch
                public final class API: Sendable {
                    public func fetch(id: Int, queue: DispatchQueue = .main,
                                      completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.fetch(id:queue:completion:)",
            expectation: .generated([
                "func fetch(id: Int) async throws -> Int {",
                "fetch(id: id, queue: .global(), completion: promise.resolve)",
            ])),

        RuleCase(
            name: "a value that is not Sendable, and not a resource, comes back as `sending`",
            source: """
                public final class Draft { public var text = "" }
                public final class Editor: Sendable {
                    public func makeDraft(completion: @escaping @Sendable (Result<Draft, any Error>) -> Void) {}
                }
                """,
            function: "Editor.makeDraft(completion:)",
            expectation: .generated([
                "public nonisolated(nonsending) func makeDraft() async throws -> sending Draft {",
                "try await withPromise(of: Draft.self) { promise in",
            ])),
        RuleCase(
            name:
                "a value that is not Sendable, with a default handler: scoped, since a plain form would take `f()` over",
            source: """
                public final class Draft { public var text = "" }
                public final class Editor: Sendable {
                    public func open(_ name: String, completion: ((Draft) -> Void)? = nil) {}
                }
                """,
            function: "Editor.open(_:completion:)",
            expectation: .generated(["completion: sending @escaping (Draft) throws -> Output"])),
        RuleCase(
            name: "a scoped form that the module's own async code would call with a closure",
            source: """
                public final class Database {}
                public final class Pool: Sendable {
                    public func read(_ value: @escaping @Sendable (Database) -> Void) {}
                }
                func caller(pool: Pool) async {
                    pool.read { _ in }
                }
                """,
            function: "Pool.read(_:)",
            expectation: .skipped(.wouldBreakCalls, "API.swift:6 calls `read(_:)` with a closure from async code")),

        // MARK: Hooks
        RuleCase(
            name: "a requirement of a protocol the library calls",
            source: """
                public protocol RequestRetrier: Sendable {
                    func retry(_ request: Int, dueTo error: any Error, completion: @escaping @Sendable (Bool) -> Void)
                }
                """,
            function: "RequestRetrier.retry(_:dueTo:completion:)",
            expectation: .skipped(.hook, "requirement of `RequestRetrier`")),
        RuleCase(
            name: "a delegate method",
            source: """
                import Foundation
                public final class SessionDelegate: NSObject, @unchecked Sendable {
                    public func urlSession(_ session: URLSession, task: URLSessionTask,
                                           willPerformHTTPRedirection response: HTTPURLResponse,
                                           completionHandler: @escaping @Sendable (URLRequest?) -> Void) {}
                }
                """,
            function: "SessionDelegate.urlSession(_:task:willPerformHTTPRedirection:completionHandler:)",
            expectation: .skipped(.hook, "delegate method")),

        // MARK: Isolation
        RuleCase(
            name: "a scoped form's body that is not @Sendable is `sending`",
            source: """
                public final class Result2 {}
                public final class HTTP: Sendable {
                    public func get(completion: @escaping (Connection) -> Void) {}
                }
                public final class Connection {}
                """,
            function: "HTTP.get(completion:)",
            expectation: .generated(["completion: sending @escaping (Connection) throws -> Output"])),
        RuleCase(
            name: "a main-actor function's form stays on the main actor (not nonisolated(nonsending))",
            source: """
                @MainActor public final class ViewModel {
                    public func reload(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "ViewModel.reload(completion:)",
            expectation: .generated(["    public func reload() async throws -> Int {"])),

        // MARK: Futures
        RuleCase(
            name: "a function that returns a future gets an async form that awaits it",
            source: """
                import FutureBridge
                public final class Profiles: Sendable {
                    public func profile(id: Int) -> Future<String> { fatalError() }
                }
                """,
            function: "Profiles.profile(id:)",
            expectation: .generated([
                "public nonisolated(nonsending) func profile(id: Int) async throws -> String {",
                "try await profile(id: id).value",
            ])),
    ]

    @Test("Each rule", arguments: cases)
    func rule(_ rule: RuleCase) throws {
        let result = Migrator(options: rule.options).migrate([SourceInput(path: "API.swift", text: rule.source)])
        let entry = try #require(
            result.entries.first { $0.function == rule.function },
            "not considered:\n\(result.report(mode: .asyncForms))")
        switch rule.expectation {
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
            #expect(actualDetail.contains(detail), "detail: \(actualDetail)")
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
                "_ body: @escaping @Sendable (Connection) -> Void",
                "It runs on the thread where `run(_:)` calls its handler, not in the caller's isolation, and it may "
                    + "run after the awaiting task is cancelled (what it returns is then dropped)."
            ),
            (
                "_ body: @escaping @MainActor (Connection) -> Void",
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
        #expect(text.contains("continuation.onTermination = { _ in handle.value.cancel() }"), "\(text)")
        let comment = text.split(separator: "\n").prefix { !$0.hasPrefix("private struct UncheckedCancelHandle") }
            .reversed().prefix { $0.hasPrefix("///") }.reversed().map { $0.dropFirst(4) }.joined(separator: " ")
        #expect(
            comment.contains(
                "a stream's `@Sendable` `onTermination`, or the `sending` closure given to `cancelOnRequest`, which "
                    + "FutureBridge runs in the caller's isolation"), "\(comment)")
    }

    @Test("A value named after an acronym type reads as Swift names it (`httpConnection`, not `hTTPConnection`)")
    func acronyms() throws {
        let source = """
            public final class HTTPConnection {}
            public final class HTTP: Sendable {
                public func connect(completion: @escaping @Sendable (HTTPConnection) -> Void) {}
            }
            """
        let result = Migrator().migrate([SourceInput(path: "HTTP.swift", text: source)])
        let text = try #require(result.files.first?.text)
        #expect(text.contains("{ httpConnection in"), "\(text)")
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
