/// An event that is not `Sendable` cannot cross to the task that consumes a stream. When the
/// handler gets the event after what it passes back (the observer, the owner, the token the
/// registration returns), the stream form takes a `@Sendable` closure that makes a `Sendable`
/// value of each event, in the callback, and yields that: the event never leaves the callback,
/// and no `@unchecked` is needed. A call that compiles today passes a closure of more
/// parameters, so it never reaches the form.
struct MappedStreamRule: Rule {
    static let summary =
        "An observer's event that is not Sendable is mapped to a Sendable value in the callback: the stream yields that."

    /// Whether the stream form can map each event in the callback.
    func decide(_ subject: (site: FunctionSite, shape: HandlerShape, passedBack: Int), in context: RuleContext) -> Bool
    {
        guard case .value = subject.shape else { return false }
        return subject.passedBack > 0
    }

    /// What a user can do about a skipped stream whose event is not Sendable.
    static func advice(_ culprit: String) -> String {
        needsSendable(culprit) + "; a stream written by hand can map each one to a Sendable value in the handler"
    }

    /// What a form would need of a type that is not Sendable.
    static func needsSendable(_ culprit: String) -> String {
        "; a form would need `\(culprit)` to be Sendable (a conformance its module declares)"
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a notification that is not Sendable, after the token: the stream yields what the caller makes of it",
            before: ObserverRule.listener(notification: "public struct Notification { public var payload: String }"),
            function: "Connection.addListener(channel:handler:)",
            after: .generated(
                [
                    "public func addListener<Output: Sendable>(",
                    "_ transform: @escaping @Sendable (Notification) -> Output",
                    ") -> AsyncThrowingStream<Output, any Error> {",
                    "end.continuation.yield(transform(value))",
                    "end.onStop { handle.stop() }",
                ], absent: ["@unchecked", "nonisolated(unsafe)"])),
        RuleExample(
            "an event that is not Sendable and comes alone: skipped, saying what a form would need",
            before: """
                public final class Token: Sendable { public func cancel() {} }
                public struct Event { public var name: String }
                public final class Bus: Sendable {
                    public func observe(_ handler: @escaping @Sendable (Event) -> Void) -> Token { Token() }
                }
                """,
            function: "Bus.observe(_:)",
            after: .skipped(.notSendable, "a form would need `Event` to be Sendable")),
    ]
}
