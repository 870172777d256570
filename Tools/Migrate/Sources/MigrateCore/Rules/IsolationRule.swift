/// Where a form runs: an async form of a function that is not isolated takes its caller's
/// isolation; a form of an isolated function keeps the original's.
struct IsolationRule: Rule {
    static let summary =
        "An async form runs in its caller's isolation (nonisolated(nonsending)) unless the original is isolated."

    /// The modifiers of a generated form. An async form of a function that is not
    /// isolated is `nonisolated(nonsending)`, as the compiler imports completion-handler
    /// methods (SE-0461): it runs on the caller's actor, so non-`Sendable` arguments and
    /// the original's values stay where they are.
    func decide(_ subject: (site: FunctionSite, async: Bool), in context: RuleContext) -> [String] {
        let (site, async) = subject
        var result: [String] = []
        if let keyword = site.access.keyword { result.append(keyword) }
        if site.isStatic { result.append("static") }
        if async, !site.isIsolated {
            result.append("nonisolated(nonsending)")
        } else if site.isNonisolated {
            result.append("nonisolated")
        }
        return result
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a scoped form's body that is not @Sendable is `sending`",
            before: """
                public final class Result2 {}
                public final class HTTP: Sendable {
                    public func get(completion: @escaping (Result<Connection, any Error>) -> Void) {}
                }
                public final class Connection {}
                """,
            function: "HTTP.get(completion:)",
            after: .generated(["completion: sending @escaping (Connection) throws -> Output"])),
        RuleExample(
            "a main-actor function's form stays on the main actor (not nonisolated(nonsending))",
            before: """
                @MainActor public final class ViewModel {
                    public func reload(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "ViewModel.reload(completion:)",
            after: .generated(["    public func reload() async throws -> Int {"])),

    ]
}
