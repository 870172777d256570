/// A generated form must never be a better match than the original for a call that
/// compiles today, in any module (issue 35, item 6). Judged from the signatures: a scoped
/// form keeps the original's name and labels and takes, in the handler's place, a body
/// that receives what the handler receives. Every existing call with a trailing closure
/// (or the handler's label) type-checks against both, and in async code Swift prefers the
/// async overload: the call would stop compiling without `await`, and with it would wait
/// instead of firing. Where the body receives something else (`T` where the handler
/// received `Result<T, E>`), an existing closure written for the handler does not
/// type-check against the body, and the original keeps its calls.
struct CaptureRule: Rule {
    static let summary =
        "A scoped form whose body takes what the handler took would capture existing calls: skipped."

    func decide(_ subject: (site: FunctionSite, shape: HandlerShape), in context: RuleContext) -> String? {
        switch subject.shape {
        case .value, .none, .carriedError:
            let handler = subject.site.parameters[subject.site.parameters.count - 1]
            return "a scoped form would take the same closure as `\(subject.site.selectorText)`: every call with a "
                + "trailing closure (or `\(handler.label ?? handler.name):`) in async code, in any module, would reach "
                + "the async form instead"
        default:
            return nil
        }
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a handler of a value that is not Sendable: no scoped form under the handler's label",
            before: """
                public final class HTTPResult { public var text = "" }
                public enum Just {
                    public static func get(
                        _ url: String, asyncCompletionHandler: (@Sendable (HTTPResult) -> Void)? = nil
                    ) -> HTTPResult { HTTPResult() }
                }
                """,
            function: "Just.get(_:asyncCompletionHandler:)",
            after: .skipped(.wouldBreakCalls, "every call with a trailing closure (or `asyncCompletionHandler:`)")),
        RuleExample(
            "work submitted as a closure: its scoped form would capture `queue.execute { }` in async code",
            before: """
                public final class Connection {}
                public final class Pool: Sendable {
                    public func execute(_ block: @escaping @Sendable (Connection) -> Void) {}
                }
                """,
            function: "Pool.execute(_:)",
            after: .skipped(.wouldBreakCalls, "would reach the async form instead")),
        RuleExample(
            "a Result handler: the body takes the success, so closures written for the handler stay with it",
            before: """
                public final class Database {}
                public final class Pool: Sendable {
                    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {}
                }
                """,
            function: "Pool.asyncRead(_:)",
            after: .generated(["func asyncRead<Output: Sendable>("])),
    ]
}
