import SwiftSyntax

/// A subscription with a receiver: `subscribe(to:messageReceiver:onSubscribe:onUnsubscribe:)
/// -> SomeFuture<Void>`, the messages through the receiver and the confirmation through the
/// returned future (as RediStack's). Its stream form starts once the future confirms the
/// registration (throwing its error), yields each message, and unsubscribes (the matching
/// `unsubscribe(from:)`, called with the same arguments) when its consumer stops.
struct SubscriptionRule: Rule {
    static let summary =
        "A subscription with a receiver and a confirming future gets a stream form that unsubscribes when it ends."

    struct Subscription {
        /// What hands the confirmation to a promise, after the call (`promise` stands for
        /// the promise's name): `.onComplete` (FutureBridge's `Future`), `.whenComplete`
        /// (NIO's `EventLoopFuture`). Awaited through a promise, not the future's own `async`
        /// accessor: `EventLoopFuture.get()` ignores cancellation, and a cancelled wait must
        /// unsubscribe what the library may still register.
        var completing: (String) -> [String]
        var futureName: String
        /// The matching unsubscription: its name, and its arguments (the subscription's).
        var unsubscribe: String
        var unsubscribeArguments: [String]
        var unsubscribeReturnsValue: Bool
        var unsubscribeSelector: String
    }

    enum Verdict {
        case subscription(Subscription)
        case skipped(SkipReason, String)
    }

    /// Futures whose completion handler is known, with the modules that declare it.
    static let awaitable: [String: (member: String, modules: Set<String>)] = [
        "Future": (".onComplete", ["FutureBridge"]),
        "EventLoopFuture": (".whenComplete", ["NIO", "NIOCore"]),
    ]

    /// The completion handler that resolves `promise` with the future's outcome: its first
    /// line (after the call), its body, and its closing brace.
    static func completing(_ futureName: String, promise: String) -> [String] {
        futureName == "Future"
            ? [".onComplete { outcome in", "    \(promise).resolve(Result { try outcome.get() })", "}"]
            : [".whenComplete { result in", "    \(promise).resolve(result)", "}"]
    }

    func decide(
        _ subject: (site: FunctionSite, receiver: Int, handlers: [Int], kept: [Int]), in context: RuleContext
    ) -> Verdict {
        let (site, receiver, handlers, kept) = subject
        let index = context.index
        let name = site.parameters[receiver].label ?? site.parameters[receiver].name
        let lead = "`\(name)` receives the messages"
        guard let returnType = site.returnType, let (future, arguments) = TypeText.nominal(returnType),
            arguments.count == 1, TypeText.isVoid(arguments[0])
        else {
            return .skipped(.eventHandler, lead + ", and nothing it returns confirms the subscription: no stream form")
        }
        let futureName = SourceIndex.lastComponent(future)
        guard let known = Self.awaitable[futureName],
            index.typeInfo(futureName).map(\.isFromInterface) ?? true
        else {
            return .skipped(.eventHandler, lead + "; awaiting `\(futureName)` needs an API this tool does not know")
        }
        if futureName != "Future", index.importedModules.isDisjoint(with: known.modules) {
            return .skipped(
                .eventHandler,
                lead + "; awaiting `\(futureName)` needs `\(known.member)` of "
                    + known.modules.sorted().joined(separator: " or ") + ", which the module does not import")
        }
        for other in handlers where other != receiver {
            let parameter = site.parameters[other]
            guard parameter.hasDefault || TypeText.optionalWrapped(parameter.type) != nil else {
                return .skipped(.eventHandler, lead + "; `\(parameter.label ?? parameter.name)` cannot be left out")
            }
        }
        let generics = Set(site.genericsInScope.keys)
        let closure = context.handlerType(site.parameters[receiver])
        for type in (closure?.parameters ?? []) + kept.map({ site.parameters[$0].type }) {
            if case .notSendable(let culprit) = index.sendability(of: type, generics: generics) {
                return .skipped(
                    .notSendable,
                    "`\(culprit)` is not Sendable: it crosses to the consuming task"
                        + MappedStreamRule.needsSendable(culprit))
            }
        }
        guard let owner = site.context.ownerName,
            let info = index.typeInfo(owner), index.isSendable(info)
        else {
            let owner = site.context.ownerName.map(SourceIndex.lastComponent) ?? "the function"
            return .skipped(
                .eventHandler,
                lead + "; `\(owner)` is not Sendable: the stream's end cannot unsubscribe from any thread")
        }
        // `subscribe` → `unsubscribe`, `psubscribe` → `punsubscribe`, `listen` → `unlisten`.
        let names = [
            site.name.replacingOccurrences(of: "subscribe", with: "unsubscribe"),
            site.name.replacingOccurrences(of: "Subscribe", with: "Unsubscribe"), "un" + site.name,
        ]
        let unsubscribeName = names.first { $0 != site.name } ?? "un" + site.name
        let keptTypes = kept.map { text(site.parameters[$0].type) }
        let candidates = ([owner] + index.allConformances(of: owner)).flatMap { index.entries(owner: $0) }
        guard
            let entry = candidates.first(where: {
                names.contains($0.name) && $0.parameterTypes == keptTypes && !$0.isAsync && !$0.isStatic
                    && $0.isolation.globalActor == nil
            })
        else {
            return .skipped(
                .eventHandler,
                lead + "; no `\(unsubscribeName)` takes the subscription's arguments: its stream could not unsubscribe")
        }
        let unsubscribe = entry.name
        let argumentsText = zip(entry.labels, kept).map { label, offset in
            (label.map { "\($0): " } ?? "") + site.parameters[offset].name
        }
        return .subscription(
            Subscription(
                completing: { Self.completing(futureName, promise: $0) }, futureName: futureName,
                unsubscribe: unsubscribe,
                unsubscribeArguments: argumentsText, unsubscribeReturnsValue: entry.returnsValue,
                unsubscribeSelector: unsubscribe + "(" + entry.labels.map { ($0 ?? "_") + ":" }.joined() + ")"))
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a subscription confirmed by a future: the stream starts once it is registered and unsubscribes at its end",
            before: """
                import FutureBridge
                public final class Client: Sendable {
                    public func subscribe(
                        to channels: [String], messageReceiver receiver: @escaping @Sendable (String, String) -> Void,
                        onSubscribe subscribeHandler: (@Sendable (String, Int) -> Void)? = nil,
                        onUnsubscribe unsubscribeHandler: (@Sendable (String, Int) -> Void)? = nil
                    ) -> Future<Void> { Future { _ in } }
                    public func unsubscribe(from channels: [String]) -> Future<Void> { Future { _ in } }
                }
                """,
            function: "Client.subscribe(to:messageReceiver:onSubscribe:onUnsubscribe:)",
            after: .generated([
                ") async throws -> AsyncThrowingStream<(String, String), any Error> {",
                "let receiver2: @Sendable (String, String) -> Void = { end.continuation.yield(($0, $1)) }",
                "try await withPromise(of: Void.self) { promise in",
                "subscribe(to: channels, messageReceiver: receiver2).onComplete { outcome in",
                "promise.cancelOnRequest { _ = self.unsubscribe(from: channels) }",
                "end.onStop { _ = self.unsubscribe(from: channels) }",
            ])),
        RuleExample(
            "an EventLoopFuture's confirmation, in a module that imports NIOCore: awaited through a promise, so that cancelling the wait ends it and unsubscribes",
            before: """
                import NIOCore
                public final class Client: Sendable {
                    public func psubscribe(
                        to patterns: [String], messageReceiver receiver: @escaping @Sendable (String, String) -> Void,
                        onSubscribe subscribeHandler: (@Sendable (String, Int) -> Void)?
                    ) -> EventLoopFuture<Void> { fatalError() }
                    public func punsubscribe(from patterns: [String]) -> EventLoopFuture<Void> { fatalError() }
                }
                """,
            function: "Client.psubscribe(to:messageReceiver:onSubscribe:)",
            after: .generated([
                "psubscribe(to: patterns, messageReceiver: receiver2, onSubscribe: nil).whenComplete { result in",
                "promise.resolve(result)",
                "promise.cancelOnRequest { _ = self.punsubscribe(from: patterns) }",
                "end.onStop { _ = self.punsubscribe(from: patterns) }",
                "when the awaiting task is cancelled first, which calls `punsubscribe(from:)`",
            ])),
        RuleExample(
            "an EventLoopFuture's confirmation, in a module that does not import NIO: skipped with the reason",
            before: """
                public final class Client: Sendable {
                    public func subscribe(
                        to channels: [String], messageReceiver receiver: @escaping @Sendable (String, String) -> Void,
                        onSubscribe subscribeHandler: (@Sendable (String, Int) -> Void)?
                    ) -> EventLoopFuture<Void> { fatalError() }
                    public func unsubscribe(from channels: [String]) -> EventLoopFuture<Void> { fatalError() }
                }
                """,
            function: "Client.subscribe(to:messageReceiver:onSubscribe:)",
            after: .skipped(.eventHandler, "needs `.whenComplete` of NIO or NIOCore, which the module does not import")),
        RuleExample(
            "a client that is not Sendable cannot unsubscribe from the stream's end: skipped with the reason",
            before: """
                import NIOCore
                public final class Connection {
                    public func subscribe(
                        to channels: [String], messageReceiver receiver: @escaping (String, String) -> Void,
                        onSubscribe subscribeHandler: ((String, Int) -> Void)?
                    ) -> EventLoopFuture<Void> { fatalError() }
                    public func unsubscribe(from channels: [String]) -> EventLoopFuture<Void> { fatalError() }
                }
                """,
            function: "Connection.subscribe(to:messageReceiver:onSubscribe:)",
            after: .skipped(.eventHandler, "`Connection` is not Sendable: the stream's end cannot unsubscribe")),
    ]
}
