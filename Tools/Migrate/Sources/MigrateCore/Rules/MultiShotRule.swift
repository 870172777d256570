import SwiftSyntax

/// Whether a handler is called many times (events, progress, observations): then the function
/// gets a stream form, never a one-shot form.
struct MultiShotRule: Rule {
    static let summary =
        "A handler called for events, progress or observations gets a stream form: one named so (`onChange`, "
        + "`progress`, `observe…`), of a function named so or that returns an observation, kept by the body in "
        + "storage named for events (`listeners`), or named by `--multi-shot` (`--one-shot` says otherwise)."

    /// Why the handler is called more than once (so the function gets a stream form), or
    /// nil for a one-shot completion handler. `--one-shot` and `--multi-shot` decide first.
    func decide(_ subject: (site: FunctionSite, handlerNames: [String]), in context: RuleContext) -> String? {
        let (site, handlerNames) = subject
        let options = context.options
        if Self.isNamed(site, in: options.oneShot) { return nil }
        if Self.isNamed(site, in: options.multiShot) { return "named by --multi-shot" }
        if ClosureName.isEvent(handlerNames) { return "`\(handlerNames.last!)` is called for events" }
        // A name like `streamMessages` or `downloadProgress` says many values, unless the
        // handler's own name says completion (`stream(feed:completion:)`).
        if ClosureName.registersEvents(site.name)
            || (ClosureName.namesUpdates(site.name) && !ClosureName.namesCompletion(handlerNames))
        {
            return "`\(site.name)` reports events or progress"
        }
        if let returnType = site.returnType, let name = TypeText.simpleName(returnType),
            ClosureName.isRegistration(name)
        {
            return "returns `\(name)`, which keeps the handler registered"
        }
        if let handler = site.parameters.last,
            let storage = HandlerStorage.names(storing: handler.name, in: site.decl).first(where: { name in
                // `listeners`, `progressHandlers`: a plural names the singular's events.
                ClosureName.isEvent([name]) || (name.hasSuffix("s") && ClosureName.isEvent([String(name.dropLast())]))
            })
        {
            return "its body keeps the handler in `\(storage)`"
        }
        return nil
    }

    /// A subscription's receiver (`subscribe(to:messageReceiver:onSubscribe:onUnsubscribe:)`):
    /// an escaping handler named for the messages or events it receives, followed by other
    /// handlers. The report names it, not the last handler, as the source of the events.
    static func receiver(_ site: FunctionSite, handlers: [Int], in context: RuleContext) -> Int? {
        guard handlers.count >= 2 else { return nil }
        for index in handlers.dropLast() {
            let parameter = site.parameters[index]
            let words = [parameter.label, parameter.name].compactMap { $0 }.flatMap(ClosureName.words)
            guard context.handlerType(parameter)?.isEscaping == true,
                words.contains(where: { ["receiver", "message", "messages", "subscriber", "listener"].contains($0) })
            else { continue }
            return index
        }
        return nil
    }

    /// Whether `names` (given with `--one-shot` or `--multi-shot`) names the function:
    /// `name`, `Owner.name`, `name(labels:)` or `Owner.name(labels:)`.
    static func isNamed(_ site: FunctionSite, in names: Set<String>) -> Bool {
        var spellings: Set<String> = [site.name, site.selectorText, site.displayName]
        if let owner = site.context.ownerName { spellings.insert(SourceIndex.lastComponent(owner) + "." + site.name) }
        return !names.isDisjoint(with: spellings)
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a subscription's receiver, not its last handler, is named as the source of the events",
            before: """
                public final class Client: Sendable {
                    public func subscribe(
                        to channels: [String], messageReceiver receiver: @escaping @Sendable (String, String) -> Void,
                        onSubscribe subscribeHandler: (@Sendable (String, Int) -> Void)?,
                        onUnsubscribe unsubscribeHandler: (@Sendable (String, Int) -> Void)?
                    ) {}
                }
                """,
            function: "Client.subscribe(to:messageReceiver:onSubscribe:onUnsubscribe:)",
            after: .skipped(.eventHandler, "`messageReceiver` receives the messages, and nothing it returns confirms")),
        RuleExample(
            "a flag that makes the handler multi-shot is set to its one-shot value, and not kept",
            before: """
                public enum Server {
                    public static func status(
                        options: [String] = [], allowIntermediateResponses: Bool = true,
                        completion: @escaping @Sendable (Result<Int, any Error>) -> Void
                    ) {}
                }
                """,
            function: "Server.status(options:allowIntermediateResponses:completion:)",
            after: .generated([
                "public static nonisolated(nonsending) func status(options: [String] = []) async throws -> Int {",
                "status(options: options, allowIntermediateResponses: false, completion: promise.resolve)",
            ])),
        RuleExample(
            "a progress handler on a request becomes a stream that cancels the request when it ends",
            before: """
                import Dispatch
                open class Request: @unchecked Sendable {
                    @discardableResult public func cancel() -> Self { self }
                    public func uploadProgress(queue: DispatchQueue = .main, closure: @escaping @Sendable (Double) -> Void) -> Self { self }
                }
                """,
            function: "Request.uploadProgress(queue:closure:)",
            after: .generated([
                "public func uploadProgress() -> AsyncThrowingStream<Double, any Error> {",
                "let handle = uploadProgress(queue: DispatchQueue(label: \"Request.uploadProgress\")) { value in",
                // The request holds the handler: the stop holds the request weakly.
                "end.onStop { [weak handle] in _ = handle?.cancel() }",
            ])),
        RuleExample(
            "an observation token: the stream's end cancels it; an error handler finishes the stream",
            before: """
                public final class Observation: Sendable { public func cancel() {} }
                public struct Query: Sendable {
                    public func start(onError: @escaping @Sendable (any Error) -> Void,
                                      onChange: @escaping @Sendable (Int) -> Void) -> Observation { Observation() }
                }
                """,
            function: "Query.start(onError:onChange:)",
            after: .generated([
                "public func start() -> AsyncThrowingStream<Int, any Error> {",
                "let finish: @Sendable (any Error) -> Void = { end.continuation.finish(throwing: $0) }",
                "let handle = start(onError: finish) { value in",
                "end.onStop { handle.cancel() }",
            ])),
        RuleExample(
            "a throwing function's stream: made before the call, which throws out of the form",
            before: """
                public final class Token: Sendable { public func cancel() {} }
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (Int) -> Void) throws -> Token { Token() }
                }
                """,
            function: "Feed.observe(_:)",
            after: .generated(
                [
                    """
                        public func observe() throws -> AsyncThrowingStream<Int, any Error> {
                            let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
                            let end = StreamEnd(continuation)
                            let handle = try observe { value in
                                end.continuation.yield(value)
                            }
                            end.onStop { handle.cancel() }
                            return stream
                        }
                    """
                ], absent: ["AsyncThrowingStream {"])),
        RuleExample(
            "a handler the body keeps among listeners is multi-shot, whatever the names say",
            before: """
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
            after: .generated([
                "public func read() -> AsyncThrowingStream<Double, any Error> {",
                "end.onStop { handle.cancel() }",
            ])),
        RuleExample(
            "a multi-shot handler with nothing to stop it: skipped, never a one-shot form",
            before: """
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (String) -> Void) {}
                }
                """,
            function: "Feed.observe(_:)",
            after: .skipped(.eventHandler, "stops the handler")),
        RuleExample(
            "--one-shot: a name that says events, taken as a completion",
            before: """
                public final class Feed: Sendable {
                    public func observe(_ handler: @escaping @Sendable (String) -> Void) {}
                }
                """,
            function: "Feed.observe(_:)",
            after: .generated(["public nonisolated(nonsending) func observe() async throws -> String {"]),
            options: MigrationOptions(oneShot: ["Feed.observe"])),
        RuleExample(
            "--multi-shot: a completion name, taken as events",
            before: """
                public final class Token: Sendable { public func cancel() {} }
                public final class Feed: Sendable {
                    public func fetch(completion: @escaping @Sendable (String) -> Void) -> Token { Token() }
                }
                """,
            function: "Feed.fetch(completion:)",
            after: .generated(["public func fetch() -> AsyncThrowingStream<String, any Error> {"]),
            options: MigrationOptions(multiShot: ["fetch(completion:)"])),

    ]
}
