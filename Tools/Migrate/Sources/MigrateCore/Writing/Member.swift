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
    /// What kind of form it is, for the counts (legacy shims have none).
    var form: FormInfo?
    /// Whether the file needs the `UncheckedCancelHandle` helper.
    var needsUncheckedHandle = false
    /// Whether the file needs the `StreamEnd` helper.
    var needsStreamEnd = false
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
        let whereClause = whereRequirements.isEmpty ? "" : "where " + whereRequirements.joined(separator: ", ")
        let oneLine = head + "(" + parameters.joined(separator: ", ") + ")" + tail
        let spaced = whereClause.isEmpty ? " {" : " " + whereClause + " {"
        if indent + oneLine.count + spaced.count <= 120 {
            result.append(oneLine + spaced)
        } else {
            // As swift-format breaks it: one parameter a line, and a long `where` clause on
            // a line of its own.
            let closing: String
            if parameters.isEmpty {
                closing = oneLine
            } else {
                result.append(head + "(")
                for (offset, parameter) in parameters.enumerated() {
                    result.append("    " + parameter + (offset < parameters.count - 1 ? "," : ""))
                }
                closing = ")" + tail
            }
            if indent + closing.count + spaced.count <= 120 {
                result.append(closing + spaced)
            } else {
                result += [closing, whereClause + " {"]
            }
        }
        result += body.map { $0.isEmpty ? "" : "    " + $0 }
        result.append("}")
        return result
    }
}
