/// A generated member (or file-scope function), before it is placed in a file.
struct GeneratedMember {
    var site: FunctionSite
    var lines: [String]
    /// Identifies the generated signature, to find two overloads that would produce
    /// the same one.
    var signatureKey: String
    /// The same without the owner, to match a protocol requirement's form.
    var memberKey: String
    /// What the report says about it.
    var note: String
    /// Whether the file needs the `UncheckedCancelHandle` helper.
    var needsUncheckedHandle = false
}

enum Plan {
    case generated(GeneratedMember)
    case skipped(SkipReason, String)
}

/// Renders a declaration: documentation, attributes, the signature (one parameter per
/// line when it would be long) and the body.
struct DeclarationText {
    var documentation: [String]
    var attributes: [String]
    var modifiers: [String]
    var name: String
    var genericParameters: [String]
    var parameters: [String]
    var effects: String
    var returnType: String?
    var whereRequirements: [String]
    var body: [String]

    /// The lines, for a member indented by `indent` spaces (the line limit counts them).
    func lines(indent: Int) -> [String] {
        var result = documentation.map { $0.isEmpty ? "///" : "/// " + $0 }
        result += attributes
        let head =
            (modifiers + ["func"]).joined(separator: " ") + " " + name
            + (genericParameters.isEmpty ? "" : "<" + genericParameters.joined(separator: ", ") + ">")
        var tail = effects.isEmpty ? "" : " " + effects
        if let returnType { tail += " -> " + returnType }
        if !whereRequirements.isEmpty { tail += " where " + whereRequirements.joined(separator: ", ") }
        tail += " {"
        let oneLine = head + "(" + parameters.joined(separator: ", ") + ")" + tail
        if indent + oneLine.count <= 120 || parameters.isEmpty {
            result.append(oneLine)
        } else {
            result.append(head + "(")
            for (offset, parameter) in parameters.enumerated() {
                result.append("    " + parameter + (offset < parameters.count - 1 ? "," : ""))
            }
            result.append(")" + tail)
        }
        result += body.map { $0.isEmpty ? "" : "    " + $0 }
        result.append("}")
        return result
    }
}
