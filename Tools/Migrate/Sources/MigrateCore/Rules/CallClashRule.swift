/// A form that would change what existing code calls: a synchronous function or a property that
/// a call with the form's labels reaches, or a call of the module's own that a scoped form would take over.
struct CallClashRule: Rule {
    static let summary =
        "No new declaration changes what an existing call means: no form where a synchronous function or a "
        + "property of its name is reached with its labels, or where existing trailing-closure calls would "
        + "type-check against it (a scoped form whose body takes what the handler took)."

    /// Whether `call` calls the function of `site` (its trailing closure as the last
    /// parameter, the handler), so that a form with all its labels would take it over.
    static func reaches(_ site: FunctionSite, _ call: CallSites.Call) -> Bool {
        var labels = call.labels
        if call.hasTrailingClosure, !labels.isEmpty { labels[labels.count - 1] = site.labels.last ?? nil }
        let original = SourceIndex.FunctionEntry(
            labels: site.labels,
            // The form's body (in the handler's place) has no default: a call must pass one.
            defaulted: site.parameters.indices.map { $0 < site.parameters.count - 1 && site.parameters[$0].hasDefault },
            isAsync: false, isStatic: site.isStatic,
            parameterTypes: [], hasHandler: true, returnsStream: false, returnsValue: site.returnType != nil)
        return CounterpartRule.accepts(original, labels: labels)
    }

    /// Why a form named `name` with `labels` would change what existing code calls: a
    /// synchronous function (the original among them) that the same call reaches, which
    /// an async caller would now resolve to the async form; or a property of that name
    /// (a redeclaration, when the form takes no arguments).
    func decide(_ candidate: FormCandidate, in context: RuleContext) -> String? {
        clash(candidate.site, name: nil, labels: candidate.labels, index: context.index)
    }

    func clash(_ site: FunctionSite, name: String?, labels: [String?], index: SourceIndex) -> String? {
        let name = name ?? site.name
        for owner in index.selfAndSupertypes(site.context.ownerName) {
            for entry in index.entries(owner: owner, name: name)
            where !entry.isAsync && entry.isStatic == site.isStatic && CounterpartRule.accepts(entry, labels: labels) {
                let prefix = owner.isEmpty ? "" : owner + "."
                return "`\(prefix)\(selector(name, labels))` reaches `\(selector(name, entry.labels))`"
            }
            if labels.isEmpty, !owner.isEmpty, index.hasProperty(owner: owner, name: name) {
                return "`\(owner).\(name)` is a property"
            }
        }
        return nil
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a form named like an existing synchronous function would make its calls async",
            before: """
                open class Download: @unchecked Sendable {
                    @discardableResult public func cancel() -> Self { self }
                    public func cancel(byProducingResumeData completionHandler: @escaping @Sendable (String?) -> Void) -> Self { self }
                }
                """,
            function: "Download.cancel(byProducingResumeData:)",
            after: .skipped(.wouldBreakCalls, "`Download.cancel()` reaches `cancel()`")),
        RuleExample(
            "a handler with a default value: the original already answers the form's call",
            before: """
                public final class Store: Sendable {
                    public func flush(completion: (@Sendable ((any Error)?) -> Void)? = nil) {}
                }
                """,
            function: "Store.flush(completion:)",
            after: .skipped(.wouldBreakCalls, "reaches `flush(completion:)`")),
        RuleExample(
            "a property with the form's name",
            before: """
                public final class Request: Sendable {
                    public var response: Int? { nil }
                    public func response(completionHandler: @escaping @Sendable (Int) -> Void) {}
                }
                """,
            function: "Request.response(completionHandler:)",
            after: .skipped(.wouldBreakCalls, "`Request.response` is a property")),
        RuleExample(
            "a parameter named like the method: the call says `self.`",
            before: """
                public final class Session: Sendable {
                    public func task(_ task: String, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "Session.task(_:completion:)",
            after: .generated(["self.task(task, completion: promise.resolve)"])),

    ]
}
