/// A function that returns another library's future (`EventLoopFuture<T>`, `Promise<T>`,
/// `AnyPublisher<T, E>`...) takes no handler, so the tool writes no form; the summary says
/// that they exist, and what awaits them (issue 35, item 9).
struct ForeignFutureRule: Rule {
    static let summary = "Functions returning another library's future are counted in the summary, not passed over."

    /// Futures of other libraries, by name, and what awaits one.
    static let futures: Set<String> = [
        "EventLoopFuture", "Promise", "AnyPublisher", "Single", "Observable", "Deferred",
    ]

    /// The future's type name, or nil.
    func decide(_ site: FunctionSite, in context: RuleContext) -> String? {
        guard !site.isAsync, site.access > .fileprivate, !(context.options.publicOnly && site.access < .public),
            let returnType = site.returnType, let (name, arguments) = TypeText.nominal(returnType),
            Self.futures.contains(SourceIndex.lastComponent(name)), !arguments.isEmpty,
            context.index.typeInfo(SourceIndex.lastComponent(name)).map(\.isFromInterface) ?? true
        else { return nil }
        return SourceIndex.lastComponent(name)
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a function that returns an EventLoopFuture is counted in the summary; its handler-taking sibling is still considered",
            before: """
                public final class Client: Sendable {
                    public func get(_ key: String) -> EventLoopFuture<String> { fatalError() }
                    public func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "Client.load(completion:)",
            after: .generated(["func load() async throws -> Int"]))
    ]
}
