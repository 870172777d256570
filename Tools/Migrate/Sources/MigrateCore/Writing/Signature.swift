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
        site.name + genericKey(site) + "("
            + parameters.map { ($0.label ?? "_") + ":" + text($0.resolvedType ?? $0.type) }.joined(separator: ",") + ")"
    }

    /// The function's own generic signature however it is spelled (`<T: P>`, or `<T>` and
    /// `where T: P`): its parameters, then its requirements, sorted, without spaces.
    func genericKey(_ site: FunctionSite) -> String {
        guard let clause = site.decl.genericParameterClause else { return "" }
        let squeezed = { (text: String) in text.filter { !$0.isWhitespace } }
        var requirements: [String] = []
        for parameter in clause.parameters {
            for constraint in parameter.inheritedType.map({ text($0).split(separator: "&") }) ?? [] {
                requirements.append(parameter.name.text + ":" + squeezed(String(constraint)))
            }
        }
        for requirement in site.decl.genericWhereClause?.requirements ?? [] {
            guard case .conformanceRequirement(let conformance) = requirement.requirement else {
                requirements.append(squeezed(text(requirement.with(\.trailingComma, nil))))
                continue
            }
            for constraint in text(conformance.rightType).split(separator: "&") {
                requirements.append(squeezed(text(conformance.leftType)) + ":" + squeezed(String(constraint)))
            }
        }
        let names = clause.parameters.map(\.name.text).joined(separator: ",")
        return "<" + names + ";" + requirements.sorted().joined(separator: ",") + ">"
    }

    func ownerKey(_ site: FunctionSite) -> String {
        (site.context.ownerName ?? "") + "|" + site.context.conditions.map(\.text).joined(separator: "&&") + "|"
    }

}
