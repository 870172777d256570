/// How a form stops the operation when the awaiting task is cancelled (or the stream ends):
/// through the handle the function returns, or the owner's `stop…()`; or why it cannot.
struct CancellationRule: Rule {
    static let summary =
        "Cancelling the awaiting task, or ending the stream, stops the operation where something can: through "
        + "what the function returns (`cancel()`, `invalidate()`, `stop()`, `abort()`, a `cancel…()`, its own, "
        + "inherited or from a protocol, or the method `--cancel-method` names), or the owner's `stopX()` beside "
        + "`startX(…)`. Where nothing can, the form's documentation says so."

    /// `stop()`): the owner's own method stops what the function started. A failure when
    /// the stop method cannot be called from a closure that is not isolated.
    func pairedStop(_ site: FunctionSite, index: SourceIndex) -> Result<Stopper, StopProblem>? {
        guard !site.isStatic, site.name.hasPrefix("start"), let owner = site.context.ownerName,
            let info = site.ownerInfo, index.isSendable(info)
        else { return nil }
        let name = "stop" + site.name.dropFirst("start".count)
        for candidate in index.selfAndSupertypes(owner) {
            guard let entry = index.entries(owner: candidate, name: name, labels: []).first(where: { !$0.isStatic })
            else { continue }
            let typeName = SourceIndex.lastComponent(owner)
            if let isolation = index.callIsolation(of: entry.isolation, owner: owner) {
                return .failure(.isolated("\(typeName).\(name)()", isolation))
            }
            return .success(
                Stopper(
                    typeName: typeName, method: name, discardsResult: entry.returnsValue, resumes: false,
                    unchecked: false, onSelf: true))
        }
        return nil
    }

    /// How to stop the operation through what the function returns, or why it cannot.
    func decide(_ site: FunctionSite, in context: RuleContext) -> Result<Stopper, StopProblem>? {
        let index = context.index
        guard let returnType = site.returnType else { return pairedStop(site, index: index) }
        let handle = index.handle(returnType, owner: site.context.ownerName)
        switch handle {
        case .unknown, .noCancel, .value:
            if let paired = pairedStop(site, index: index) { return paired }
        default:
            break
        }
        switch handle {
        case .urlSessionTask(let name):
            return .success(
                Stopper(typeName: name, method: "cancel", discardsResult: false, resumes: true, unchecked: false))
        case .cancellable(let name, let method):
            return .success(
                Stopper(
                    typeName: name, method: method.name, discardsResult: method.returnsValue, resumes: false,
                    unchecked: false))
        case .uncheckedCancellable(let name):
            return .success(
                Stopper(typeName: name, method: "cancel", discardsResult: false, resumes: false, unchecked: true))
        case .workItem:
            return .failure(.workItem)
        case .notSendable(let name, let method):
            return .failure(.notSendable(name, method))
        case .isolated(let name, let method, let isolation):
            return .failure(.isolated("\(name).\(method.name)()", isolation))
        case .unknown(let name):
            return .failure(.unknown(name))
        case .noCancel(let name):
            return .failure(.noCancel(name))
        case .value(let spelled):
            return .failure(.value(spelled))
        }
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "`-> Self` with cancel() inherited from the base class",
            before: """
                open class Request: @unchecked Sendable {
                    @discardableResult public func cancel() -> Self { self }
                }
                public final class DataRequest: Request, @unchecked Sendable {
                    @discardableResult
                    public func response(completionHandler: @escaping @Sendable (Int) -> Void) -> Self { self }
                }
                """,
            function: "DataRequest.response(completionHandler:)",
            after: .generated([
                "let handle = response(completionHandler: promise.resolve)",
                "promise.cancelOnRequest { _ = handle.cancel() }",
                "@discardableResult",
            ])),
        RuleExample(
            "a handle that is not Sendable, returned by a receiver that is not Sendable: carried in a box",
            before: """
                public final class Job { public func cancel() {} }
                public final class Client {
                    public func fetch(_ id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) -> Job {
                        Job()
                    }
                }
                """,
            function: "Client.fetch(_:completion:)",
            after: .generated(
                [
                    "let cancellable = fetch(id, completion: promise.resolve)",
                    "let handle = UncheckedCancelHandle(cancellable)",
                    "promise.cancelOnRequest { handle.value.cancel() }",
                ], absent: ["promise.cancelOnRequest { handle.cancel() }"])),
        RuleExample(
            "cancel() declared by a protocol the handle conforms to",
            before: """
                public protocol Cancellable: Sendable { func cancel() }
                public final class Token: Cancellable { public func cancel() {} }
                public final class API: Sendable {
                    public func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Token { Token() }
                }
                """,
            function: "API.load(completion:)",
            after: .generated(["promise.cancelOnRequest { handle.cancel() }"])),
        RuleExample(
            "invalidate() stops a handle that has no cancel()",
            before: """
                public final class Call: Sendable { public func invalidate() {} }
                public final class API: Sendable {
                    public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Call { Call() }
                }
                """,
            function: "API.fetch(completion:)",
            after: .generated(["promise.cancelOnRequest { handle.invalidate() }"])),
        RuleExample(
            "a handle of another module with no symbol graph: not cancelled, and said so",
            before: """
                public final class API: Sendable {
                    public func fetch(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> RemoteCall {
                        fatalError()
                    }
                }
                """,
            function: "API.fetch(completion:)",
            after: .generated([
                "// Not cancelled: `RemoteCall` is not known to have cancel().",
                "Cancelling the awaiting task ends the wait but does not stop the operation",
            ])),

        RuleExample(
            "a @MainActor start…/stop… pair: the stream's end cannot call stop…(), so no stream",
            before: """
                @MainActor public final class Monitor {
                    public func startMonitoring(onUpdatePerforming handler: @escaping @Sendable (Int) -> Void) {}
                    public func stopMonitoring() {}
                }
                """,
            function: "Monitor.startMonitoring(onUpdatePerforming:)",
            after: .skipped(
                .eventHandler, "`Monitor.stopMonitoring()` is isolated to `@MainActor`, and the stream's end is not")),
        RuleExample(
            "a @MainActor start…/stop… pair of a one-shot function: not cancelled, and said so",
            before: """
                @MainActor public final class Loader {
                    public func startLoading(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                    public func stopLoading() {}
                }
                """,
            function: "Loader.startLoading(completion:)",
            after: .generated(
                [
                    "// Not cancelled: `Loader.stopLoading()` is isolated to `@MainActor`, and the cancel handler is not.",
                    "    public func startLoading() async throws -> Int {",
                    "is not.\n            startLoading(completion: promise.resolve)\n",
                ], absent: ["cancelOnRequest", "self.stopLoading()"])),
        RuleExample(
            "an actor's cancel(): not called from the cancel handler, and said so",
            before: """
                public actor Job { public func cancel() {} }
                public final class API: Sendable {
                    public func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Job {
                        fatalError()
                    }
                }
                """,
            function: "API.load(completion:)",
            after: .generated(
                ["// Not cancelled: `Job.cancel()` is isolated to the actor `Job`, and the cancel handler is not."],
                absent: ["cancelOnRequest", "handle.cancel()"])),
        RuleExample(
            "an actor's cancel(): the stream's end cannot call it, so no stream",
            before: """
                public actor Subscription { public func cancel() {} }
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (Int) -> Void) -> Subscription { fatalError() }
                }
                """,
            function: "Feed.observe(_:)",
            after: .skipped(.eventHandler, "`Subscription.cancel()` is isolated to the actor `Subscription`")),
        RuleExample(
            "a nonisolated cancel() of a @MainActor handle is called from any thread",
            before: """
                @MainActor public final class Token { nonisolated public func cancel() {} }
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (Int) -> Void) -> Token { fatalError() }
                }
                """,
            function: "Feed.observe(_:)",
            after: .generated(["end.onStop { handle.cancel() }"])),
        RuleExample(
            "an async stop…(): the stream's end cannot await it, so no stream",
            before: """
                public final class Sensor: Sendable {
                    public func startReading(onUpdatePerforming handler: @escaping @Sendable (Double) -> Void) {}
                    public func stopReading() async {}
                }
                """,
            function: "Sensor.startReading(onUpdatePerforming:)",
            after: .skipped(
                .eventHandler, "`Sensor.stopReading()` is async, and the stream's end cannot await it")),
        RuleExample(
            "--public-only: an internal `cancel()` beside a public `stop()`: the form, compiled outside the module, calls `stop()`",
            before: """
                public final class ListenContext: Sendable {
                    func cancel() {}
                    public func stop() {}
                }
                public final class Connection: Sendable {
                    public func addListener(
                        channel: String, handler: @escaping @Sendable (ListenContext, Int) -> Void
                    ) -> ListenContext { ListenContext() }
                }
                """,
            function: "Connection.addListener(channel:handler:)",
            after: .generated(["end.onStop { handle.stop() }"], absent: ["handle.cancel()"]),
            options: MigrationOptions(publicOnly: true)),
    ]
}

/// How a returned handle stops the operation it stands for.
struct Stopper {
    /// The handle's type, for the notes.
    var typeName: String
    /// The method it calls (`cancel`, `invalidate`, `stop`).
    var method: String
    /// The method returns something the call discards (`cancel() -> Self`).
    var discardsResult: Bool
    /// A `URLSessionTask`: it starts suspended, so the form resumes it.
    var resumes: Bool
    /// Kept in `UncheckedCancelHandle` to cross into the closure that cancels it (the `@Sendable`
    /// closure given to a stream's `StreamEnd.onStop`, or the `sending` closure given to `cancelOnRequest`).
    var unchecked: Bool
    /// The owner stops it (`startListening` is stopped by `self.stopListening()`): nothing
    /// returned is kept.
    var onSelf = false

    /// The statement that stops the operation through `handle` (`?` for an optional one).
    func call(_ handle: String, chain: String) -> String {
        if onSelf { return (discardsResult ? "_ = " : "") + "self." + method + "()" }
        return (discardsResult ? "_ = " : "") + handle + (unchecked ? ".value" : "") + chain + "." + method + "()"
    }
}

/// `startListening(…)` on a `Sendable` owner that has `stopListening()` (or `start` and

/// Why a returned value does not stop the operation (from any thread).
enum StopProblem: Error {
    case workItem
    /// The handle's type, and the method that would stop it.
    case notSendable(String, SourceIndex.CancelMethod)
    /// The stop method (`Type.method()`), which a closure that is not isolated cannot call.
    case isolated(String, SourceIndex.CallIsolation)
    case unknown(String)
    case noCancel(String)
    case value(String)
}
