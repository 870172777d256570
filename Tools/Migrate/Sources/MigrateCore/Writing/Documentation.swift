import SwiftSyntax

/// The documentation of a generated form.
extension AsyncFormPlanner {
    /// "Async form of `f(completion:)`.", then the original documentation without the
    /// handler's parameter (nor `- Returns:`, when the original returns a handle), with
    /// `notes` before its callouts and `callouts` after them.
    func composeDocumentation(
        _ site: FunctionSite, title: String? = nil, removing removed: Set<String>, notes: [String], callouts: [String]
    ) -> [String] {
        var original = site.documentation(removingParameters: removed, removingReturns: site.returnType != nil)
        let firstCallout =
            original.firstIndex { line in
                let lower = line.lowercased()
                return ["- parameter", "- returns:", "- throws:"].contains { lower.hasPrefix($0) }
            } ?? original.endIndex
        var noteLines: [String] = []
        for note in notes { noteLines += wrapped(note) + [""] }
        if firstCallout == original.endIndex {
            if !noteLines.isEmpty, !original.isEmpty { original.append("") }
            original += noteLines.dropLast()
        } else {
            original.insert(contentsOf: noteLines, at: firstCallout)
        }
        var result = wrapped(title ?? "Async form of `\(site.selectorText)`.")
        if !original.isEmpty { result += [""] + original }
        if !callouts.isEmpty {
            if !(original.last?.hasPrefix("- ") ?? false) && !(original.last?.hasPrefix("  ") ?? false) {
                result.append("")
            }
            for callout in callouts { result += wrapped(callout) }
        }
        return result
    }

    /// A generated documentation paragraph, in lines of at most 100 characters.
    func wrapped(_ paragraph: String) -> [String] {
        var lines: [String] = []
        var current = ""
        let continuation = paragraph.hasPrefix("- ") ? "  " : ""
        for word in paragraph.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > 100 {
                lines.append(current)
                current = continuation + word
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `HTTPResult` → `httpResult`, `URL` → `url`, `Progress` → `progress`.
    func lowerCamel(_ name: String) -> String {
        guard !name.isEmpty else { return "value" }
        let upper = name.prefix(while: \.isUppercase).count
        if upper == name.count { return name.lowercased() }
        let lowered = Swift.max(1, upper - 1)
        return name.prefix(lowered).lowercased() + name.dropFirst(lowered)
    }
}
