import SwiftSyntax

/// The pieces of a generated declaration taken from the original.
extension AsyncFormPlanner {
    func modifiers(_ site: FunctionSite) -> [String] {
        modifiers(site, async: false)
    }

    /// The modifiers of a generated form (``IsolationRule``).
    func modifiers(_ site: FunctionSite, async: Bool) -> [String] {
        IsolationRule().decide((site, async), in: context)
    }

    func genericParameters(_ site: FunctionSite) -> [String] {
        site.decl.genericParameterClause?.parameters.map { text($0.with(\.trailingComma, nil)) } ?? []
    }

    func whereRequirements(_ site: FunctionSite) -> [String] {
        site.decl.genericWhereClause?.requirements.map { text($0.with(\.trailingComma, nil)) } ?? []
    }

    /// `name<T: Decodable>(label:Type,...)` of a form with these parameters: what tells two
    /// forms apart. The generic signature counts: `send<T: Decodable>(_:) -> T` beside
    /// `send(_:)` (a `Void` response) is an overload, not the same form.
    func formKey(_ site: FunctionSite, _ parameters: [Parameter]) -> String {
        let generics = genericParameters(site) + whereRequirements(site)
        return site.name + (generics.isEmpty ? "" : "<" + generics.joined(separator: ",") + ">") + "("
            + parameters.map { ($0.label ?? "_") + ":" + text($0.resolvedType ?? $0.type) }.joined(separator: ",") + ")"
    }

    func ownerKey(_ site: FunctionSite) -> String {
        (site.context.ownerName ?? "") + "|" + site.context.conditions.map(\.text).joined(separator: "&&") + "|"
    }

}
