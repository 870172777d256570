import SwiftSyntax

/// A function that returns FutureBridge's `Future<T>`: its form awaits the future.
struct FutureRule: Rule {
    static let summary = "A function returning a FutureBridge Future gets an async form that awaits it."

    /// The value type of a `Future<T>` the function returns (FutureBridge's: one generic
    /// argument, and no `Future` type of the sources' own), or nil.
    func decide(_ site: FunctionSite, in context: RuleContext) -> TypeSyntax? {
        guard let returnType = site.returnType, TypeText.optionalWrapped(returnType) == nil,
            let (name, arguments) = TypeText.nominal(returnType),
            name == "Future" || name == "FutureBridge.Future", arguments.count == 1
        else { return nil }
        if let declared = context.index.typeInfo("Future"), !declared.isFromInterface { return nil }
        return arguments[0]
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a function that returns a future gets an async form that awaits it",
            before: """
                import FutureBridge
                public final class Profiles: Sendable {
                    public func profile(id: Int) -> Future<String> { fatalError() }
                }
                """,
            function: "Profiles.profile(id:)",
            after: .generated([
                "public nonisolated(nonsending) func profile(id: Int) async throws -> String {",
                "try await profile(id: id).value",
            ]))
    ]
}
