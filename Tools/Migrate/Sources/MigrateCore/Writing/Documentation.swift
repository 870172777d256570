import SwiftSyntax

/// The documentation of a generated form.
extension AsyncFormPlanner {
    /// "Async form of `f(completion:)`.", then the original documentation without the
    /// handler's parameter (nor `- Returns:`, when the original returns a handle), with
    /// `notes` before its callouts and `callouts` after them.
    func composeDocumentation(
        _ site: FunctionSite, title: String? = nil, removing removed: Set<String>, notes: [String], callouts: [String]
    ) -> [String] {
        let keeping = Set(
            site.parameters.flatMap { [$0.name, $0.label].compactMap { $0 } }.filter { !removed.contains($0) })
        var original = site.documentation(
            removingParameters: removed, keeping: keeping, removingReturns: site.returnType != nil)
        // The form discards what the original returns: no advice to cancel it.
        if site.returnType != nil { original = droppingHandleAdvice(original) }
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
            // A block comment often has no blank line before its callouts.
            if firstCallout > 0, !original[firstCallout - 1].trimmingCharacters().isEmpty, !noteLines.isEmpty {
                noteLines.insert("", at: 0)
            }
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

    /// The documentation without its sentences that advise cancelling what the function
    /// returns ("Call `cancel()` on the returned task to stop it."): a form that discards
    /// the handle says itself what stops the operation. A paragraph, or a note callout
    /// (`- Note:`, `- Important:`...), that loses a sentence is wrapped again (and dropped
    /// when none is left); other callouts and code blocks are left as they are.
    func droppingHandleAdvice(_ lines: [String]) -> [String] {
        var result: [String] = []
        var paragraph: [String] = []
        // A note callout being read: its lines, and its `- Note:` prefix.
        var callout: (lines: [String], prefix: String)?
        var inCode = false
        func flush() {
            defer { paragraph = [] }
            let text = paragraph.joined(separator: " ")
            let kept = Self.withoutHandleAdvice(text)
            result += kept.map { $0.isEmpty ? [] : wrapped($0) } ?? paragraph
        }
        func flushCallout() {
            defer { callout = nil }
            guard let (lines, prefix) = callout else { return }
            let text = lines.map { $0.trimmingCharacters() }.joined(separator: " ").dropFirst(prefix.count)
            let kept = Self.withoutHandleAdvice(text.trimmingCharacters())
            result += kept.map { $0.isEmpty ? [] : wrapped(prefix + " " + $0) } ?? lines
        }
        var inCallout = false
        for line in lines {
            let trimmed = line.trimmingCharacters()
            if trimmed.hasPrefix("```") { inCode.toggle() }
            if callout != nil, !inCode, !trimmed.isEmpty, !trimmed.hasPrefix("- "), line.leadingSpaces > 0 {
                callout?.lines.append(line)
                continue
            }
            flushCallout()
            if !inCode, line.leadingSpaces == 0, let prefix = Self.noteCalloutPrefix(trimmed) {
                flush()
                callout = ([line], prefix)
                inCallout = true
                continue
            }
            if inCode || trimmed.hasPrefix("```") || trimmed.isEmpty || trimmed.hasPrefix("- ") || inCallout
                || (paragraph.isEmpty && line.leadingSpaces > 0)
            {
                flush()
                if trimmed.hasPrefix("- ") { inCallout = true } else if trimmed.isEmpty { inCallout = false }
                result.append(line)
            } else {
                paragraph.append(line)
            }
        }
        flushCallout()
        flush()
        // A paragraph dropped whole leaves two blank lines, or one at an end.
        var collapsed: [String] = []
        for line in result
        where !(line.trimmingCharacters().isEmpty && (collapsed.last?.trimmingCharacters().isEmpty ?? true)) {
            collapsed.append(line)
        }
        while collapsed.last?.trimmingCharacters().isEmpty == true { collapsed.removeLast() }
        return collapsed
    }

    /// `- Note:` in `- Note: Hold the returned value…`: a callout of free text, or nil.
    static func noteCalloutPrefix(_ trimmed: String) -> String? {
        let keywords = ["note", "important", "warning", "attention", "remark", "tip", "discussion"]
        guard trimmed.hasPrefix("- "), let colon = trimmed.firstIndex(of: ":") else { return nil }
        let keyword = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<colon].lowercased()
        return keywords.contains(keyword) ? String(trimmed[...colon]) : nil
    }

    /// `text` without its sentences (or clauses) that advise cancelling what is returned, or
    /// nil when it has none. "Downloads a blob; returns the operation, which cancels it." keeps
    /// "Downloads a blob."
    static func withoutHandleAdvice(_ text: String) -> String? {
        let sentences = text.split(separator: " ").reduce(into: [""]) { sentences, word in
            sentences[sentences.count - 1] += (sentences[sentences.count - 1].isEmpty ? "" : " ") + word
            if let last = word.last, ".!?".contains(last) { sentences.append("") }
        }.filter { !$0.isEmpty }
        var changed = false
        let kept = sentences.compactMap { sentence -> String? in
            let clauses = sentence.components(separatedBy: "; ")
            let remaining = clauses.filter { clause in
                let lower = clause.lowercased()
                return !(lower.contains("cancel") && lower.contains("return"))
            }
            if remaining.count == clauses.count { return sentence }
            changed = true
            guard var text = remaining.isEmpty ? nil : remaining.joined(separator: "; ") else { return nil }
            if let last = text.last, !".!?".contains(last) { text += "." }
            return text
        }
        return changed ? kept.joined(separator: " ") : nil
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
