/// An observer registration: `addObserver(_ observer: O, closure: (O, Change) -> Void)`
/// (the observer, held weakly by the library, and the observed object come back before
/// the event), or `addListener(channel:handler: (ListenContext, Notification) -> Void)
/// -> ListenContext` (the token it returns comes back before the event). The stream yields
/// the event alone; the form keeps the observer parameter, whose lifetime still bounds the
/// observation.
struct ObserverRule: Rule {
    static let summary =
        "An observer's handler gets the observer (and the observed object) back before the event: the stream yields the event."

    /// How many leading parameters of the handler are the observer or the owner, or nil.
    func decide(_ subject: (site: FunctionSite, closure: ClosureType), in context: RuleContext) -> Int? {
        let (site, closure) = subject
        guard closure.parameters.count >= 2 else { return nil }
        let observers = Set(site.parameters.map { text($0.type) })
        let owner = site.context.ownerName.map(SourceIndex.lastComponent)
        let token = site.returnType.flatMap(TypeText.simpleName)
        let leading = closure.parameters.dropLast()
        let passedBack = leading.allSatisfy { type in
            let spelled = text(type)
            let name = TypeText.simpleName(type)
            return observers.contains(spelled) || spelled == "Self" || (owner != nil && name == owner)
                || (token != nil && name == token)
        }
        return passedBack ? leading.count : nil
    }

    /// A connection whose `addListener(channel:handler:)` passes back the token it returns,
    /// with this notification type: the examples' source.
    static func listener(notification: String) -> String {
        """
        public final class ListenContext: Sendable { public func stop() {} }
        \(notification)
        public final class Connection: Sendable {
            @discardableResult
            public func addListener(
                channel: String, handler: @escaping @Sendable (ListenContext, Notification) -> Void
            ) -> ListenContext { ListenContext() }
        }
        """
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "an observer and the observed object come back before the change: the stream yields the change",
            before: """
                public final class ObservationToken: Sendable { public func cancel() {} }
                public enum Change: Sendable { case added, removed }
                public final class Storage: Sendable {
                    public func addObserver<O: AnyObject>(
                        _ observer: O, closure: @escaping @Sendable (O, Storage, Change) -> Void
                    ) -> ObservationToken { ObservationToken() }
                }
                """,
            function: "Storage.addObserver(_:closure:)",
            after: .generated([
                "public func addObserver<O: AnyObject>(_ observer: O) -> AsyncThrowingStream<Change, any Error> {",
                "let handle = addObserver(observer) { _, _, value in",
                "end.onStop { handle.cancel() }",
            ])),
        RuleExample(
            "the token the registration returns comes back before the event: the stream yields the event, and its end stops the token",
            before: listener(notification: "public struct Notification: Sendable { public var payload: String }"),
            function: "Connection.addListener(channel:handler:)",
            after: .generated([
                "public func addListener(channel: String) -> AsyncThrowingStream<Notification, any Error> {",
                "let handle = addListener(channel: channel) { _, value in",
                "end.onStop { handle.stop() }",
            ])),
        RuleExample(
            "a token that is not Sendable cannot be cancelled from the stream's end: skipped with the reason",
            before: """
                public final class ObservationToken { public func cancel() {} }
                public enum Change: Sendable { case added, removed }
                public final class Storage {
                    public func addStorageObserver<O: AnyObject>(
                        _ observer: O, closure: @escaping (O, Storage, Change) -> Void
                    ) -> ObservationToken { ObservationToken() }
                }
                """,
            function: "Storage.addStorageObserver(_:closure:)",
            after: .skipped(
                .eventHandler,
                "`ObservationToken` is not Sendable, so the stream's end, which runs on any thread, cannot call its `cancel()`"
            )),
    ]
}
