import SwiftSyntax

extension FunctionSite {
    /// The function's documentation with the lines about some parameters removed (and
    /// `- Returns:` / `- Throws:` sections, if asked). With `keeping`, a parameter's lines
    /// are removed when they name none of these and a handler (a handler documented under
    /// another name, as `- completion:` for `completionHandler`, goes with the handler).
    func documentation(
        removingParameters removed: Set<String>, keeping: Set<String>? = nil, removingReturns: Bool,
        removingThrows: Bool = false
    ) -> [String] {
        let kept = keeping.map { Set($0.map { $0.lowercased() }) }
        let removed = Set(removed.map { $0.lowercased() })
        func isRemoved(_ name: String) -> Bool {
            if removed.contains(name) { return true }
            guard let kept, !kept.contains(name) else { return false }
            return ["completion", "handler", "callback", "block", "closure", "reply", "done"].contains(
                where: name.contains)
        }
        var lines = documentationLines(decl)
        var result: [String] = []
        var index = 0
        var parametersHeader: Int?
        var parametersKept = 0
        func skipContinuation(from start: Int, indent: Int) -> Int {
            var next = start
            while next < lines.count {
                let line = lines[next]
                let trimmed = line.trimmingCharacters()
                // A callout's text runs on until a blank line, the next callout, or a line
                // indented less than it: SDKs often continue at the callout's own indent.
                if trimmed.isEmpty || line.leadingSpaces < indent || trimmed.hasPrefix("- ") { break }
                next += 1
            }
            return next
        }
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters()
            let lower = trimmed.lowercased()
            let indent = line.leadingSpaces
            if lower.hasPrefix("- parameters:") {
                if let header = parametersHeader, parametersKept == 0 { result.remove(at: header) }
                parametersHeader = result.count
                parametersKept = 0
                result.append(line)
                index += 1
                continue
            }
            if let name = Self.parameterDocName(lower, singular: true), isRemoved(name) {
                index = skipContinuation(from: index + 1, indent: indent)
                continue
            }
            if parametersHeader != nil, indent > 0, let name = Self.parameterDocName(lower, singular: false) {
                if isRemoved(name) {
                    index = skipContinuation(from: index + 1, indent: indent)
                    continue
                }
                parametersKept += 1
            }
            if (removingReturns && lower.hasPrefix("- returns:")) || (removingThrows && lower.hasPrefix("- throws:")) {
                index = skipContinuation(from: index + 1, indent: indent)
                continue
            }
            if indent == 0, trimmed.hasPrefix("- "), !lower.hasPrefix("- parameters:") {
                if let header = parametersHeader, parametersKept == 0 { result.remove(at: header) }
                parametersHeader = nil
            }
            result.append(line)
            index += 1
        }
        if let header = parametersHeader, parametersKept == 0 { result.remove(at: header) }
        lines = []
        for line in result
        where !(line.trimmingCharacters().isEmpty && (lines.last?.trimmingCharacters().isEmpty ?? true)) {
            lines.append(line)
        }
        while lines.last?.trimmingCharacters().isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `name` in `- parameter name: ...` (singular) or `- name: ...` (in a list).
    private static func parameterDocName(_ lower: String, singular: Bool) -> String? {
        var rest = Substring(lower)
        guard rest.hasPrefix("- ") else { return nil }
        rest = rest.dropFirst(2)
        if singular {
            guard rest.hasPrefix("parameter ") else { return nil }
            rest = rest.dropFirst("parameter ".count)
        }
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let name = rest[..<colon].trimmingCharacters()
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        return name
    }
}
