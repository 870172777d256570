/// Where a form runs: an async form of a function that is not isolated takes its caller's
/// isolation; a form of an isolated function keeps the original's.
struct IsolationRule: Rule {
    static let summary =
        "An async form runs in its caller's isolation (nonisolated(nonsending)) unless the original is isolated."

    /// The modifiers of a generated form. An async form of a function that is not
    /// isolated is `nonisolated(nonsending)`, as the compiler imports completion-handler
    /// methods (SE-0461): it runs on the caller's actor, so non-`Sendable` arguments and
    /// the original's values stay where they are. In a module isolated to the main actor by
    /// default (`--default-isolation MainActor`), a function with no attribute is isolated to
    /// it, and so is its form, which is written with no attribute either.
    func decide(_ subject: (site: FunctionSite, async: Bool), in context: RuleContext) -> [String] {
        let (site, async) = subject
        var result: [String] = []
        if let keyword = site.access.keyword { result.append(keyword) }
        if site.isStatic { result.append("static") }
        if async, !site.isIsolated {
            result.append("nonisolated(nonsending)")
        } else if site.isNonisolated || (context.index.defaultIsolation != nil && !site.isIsolated) {
            // In a module isolated to the main actor by default, a form of a function the
            // default leaves nonisolated (in the body of a `nonisolated` type, say) would take
            // the default in its extension: it says `nonisolated`.
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
        RuleExample(
            "default isolation MainActor: an unannotated method's form stays on the main actor",
            before: """
                public final class Loader {
                    public func reload(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "Loader.reload(completion:)",
            after: .generated(["    public func reload() async throws -> Int {"], absent: ["nonisolated"]),
            options: .mainActorDefault),
        RuleExample(
            "default isolation MainActor: a stream form of a `nonisolated` type's method says so",
            before: """
                import Dispatch
                public nonisolated class Request: @unchecked Sendable {
                    @discardableResult public func cancel() -> Self { self }
                    public func uploadProgress(queue: DispatchQueue = .main, closure: @escaping @Sendable (Double) -> Void) -> Self { self }
                }
                """,
            function: "Request.uploadProgress(queue:closure:)",
            after: .generated([
                "    public nonisolated func uploadProgress() -> AsyncThrowingStream<Double, any Error> {"
            ]),
            options: .mainActorDefault),

    ]
}
