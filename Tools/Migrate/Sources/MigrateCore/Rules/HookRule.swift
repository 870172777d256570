/// A function the library calls, not its users: a delegate method, or a requirement (or an
/// implementation of one) of a hook protocol. Its handler is for the conforming type to call.
struct HookRule: Rule {
    static let summary = "Delegate methods and hook protocols' requirements are the library's to call: skipped."

    /// Why the library, not its users, calls this function: a delegate method
    /// (`urlSession(_ session: URLSession, …)`, `task(_ task: URLSessionTask, …)`), or a
    /// requirement (or its implementation) of a hook protocol (`…Delegate`, `…Handler`,
    /// `…Retrier`…).
    func decide(_ site: FunctionSite, in context: RuleContext) -> String? {
        let index = context.index
        if let hook = index.hookRequirement(owner: site.context.ownerName, name: site.name, labels: site.labels) {
            return "requirement of `\(hook)`"
        }
        let conformsToDelegate = index.selfAndSupertypes(site.context.ownerName).dropFirst().contains {
            SourceIndex.hookSuffixes.contains(where: SourceIndex.lastComponent($0).hasSuffix)
        }
        if let first = site.parameters.first, first.label == nil, let typeName = TypeText.simpleName(first.type),
            typeName.lowercased().hasSuffix(site.name.lowercased()),
            conformsToDelegate
                || site.labels.dropFirst().contains(where: { label in
                    ["did", "will", "should"].contains { label?.hasPrefix($0) ?? false }
                })
        {
            return "delegate method: `\(site.name)(_:)` receives the `\(typeName)` that calls it"
        }
        return nil
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a requirement of a protocol the library calls",
            before: """
                public protocol RequestRetrier: Sendable {
                    func retry(_ request: Int, dueTo error: any Error, completion: @escaping @Sendable (Bool) -> Void)
                }
                """,
            function: "RequestRetrier.retry(_:dueTo:completion:)",
            after: .skipped(.hook, "requirement of `RequestRetrier`")),
        RuleExample(
            "a delegate method",
            before: """
                import Foundation
                public final class SessionDelegate: NSObject, @unchecked Sendable {
                    public func urlSession(_ session: URLSession, task: URLSessionTask,
                                           willPerformHTTPRedirection response: HTTPURLResponse,
                                           completionHandler: @escaping @Sendable (URLRequest?) -> Void) {}
                }
                """,
            function: "SessionDelegate.urlSession(_:task:willPerformHTTPRedirection:completionHandler:)",
            after: .skipped(.hook, "delegate method")),

    ]
}
