import SwiftSyntax

/// Parameters that an async form cannot forward: variadic (and parameter packs), `inout`,
/// `isolated`, autoclosures.
struct ParameterRule: Rule {
    static let summary = "A parameter the form cannot forward (variadic, inout, isolated, autoclosure): skipped."

    /// `excluding`: the handlers, which the form does not forward.
    func decide(_ subject: (site: FunctionSite, excluding: [Int]), in context: RuleContext) -> Plan? {
        for (offset, parameter) in subject.site.parameters.enumerated() where !subject.excluding.contains(offset) {
            let name = "`\(parameter.name)`"
            // `_ args: repeat each A` is forwarded as `repeat each args`, which this tool does not write.
            if parameter.isVariadic || parameter.type.is(PackExpansionTypeSyntax.self) {
                return .skipped(.variadic, name)
            }
            if parameter.isInout { return .skipped(.inoutParameter, name) }
            if parameter.isIsolated { return .skipped(.isolatedParameter, name) }
            if let closure = ClosureType(parameter.type, aliases: context.index.alias), closure.isAutoclosure {
                return .skipped(.autoclosure, name)
            }
        }
        return nil
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "an inout parameter cannot be captured across the suspension",
            before: """
                public final class API: Sendable {
                    public func fill(_ buffer: inout [UInt8], completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.fill(_:completion:)",
            after: .skipped(.inoutParameter, "`buffer`")),
        RuleExample(
            "a variadic parameter cannot be forwarded",
            before: """
                public final class API: Sendable {
                    public func send(_ values: Int..., completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.send(_:completion:)",
            after: .skipped(.variadic, "`values`")),
        RuleExample(
            "a parameter pack is not forwarded either (Macro's `task(on:_:body:yield:)`)",
            before: """
                public final class API: Sendable {
                    public func run<each A>(_ args: repeat each A, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.run(_:completion:)",
            after: .skipped(.variadic, "`args`")),
    ]
}
