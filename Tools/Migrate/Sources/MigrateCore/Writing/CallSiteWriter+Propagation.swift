import SwiftSyntax

/// The edits of ``SyncPropagation``: a call awaited, a root that starts a task.
extension CallSiteWriter {
    /// `f(…)` → `await f(…)` (after a `try`: `try await f(…)`).
    func awaitInsertion(_ call: FunctionCallExprSyntax) -> LineEdit? {
        inserting("await ", at: call.positionAfterSkippingLeadingTrivia)
    }

    /// The statement `f(…)`, alone on its lines, → `Task { await f(…) }` (a call written on
    /// several lines goes inside the task's braces, one level deeper).
    /// With `mainActor`, `Task { @MainActor in await f(…) }`: work the main queue ran.
    func taskEdit(_ statement: CodeBlockItemSyntax, mainActor: Bool = false) -> LineEdit? {
        guard let range = ownLines(statement) else { return nil }
        let indent = String(lines[range.lowerBound].prefix { $0 == " " || $0 == "\t" })
        let text = statement.trimmedDescription
        let opening = mainActor ? "Task { @MainActor in" : "Task {"
        guard range.count > 1 else {
            return LineEdit(
                first: range.lowerBound, last: range.upperBound, lines: [indent + "\(opening) await \(text) }"])
        }
        let unit = Self.unit(indent)
        let body = lines[range].enumerated().map { offset, line in
            offset == 0 ? indent + unit + "await " + line.drop { $0 == " " || $0 == "\t" } : unit + line
        }
        return LineEdit(
            first: range.lowerBound, last: range.upperBound, lines: [indent + opening] + body + [indent + "}"])
    }
}

extension CallSiteWriter {
    /// `let result: Result<T, any Error>` set by a `do`/`catch` around the await, for the
    /// handler's code that follows (``ResultHandlerRule``'s whole result).
    func wholeResultLines(_ whole: (name: String, type: String), call: String, indent: String) -> [String] {
        let unit = Self.unit(indent)
        return [
            indent + "let \(whole.name): \(whole.type)",
            indent + "do {",
            indent + unit + "\(whole.name) = .success(try await \(call))",
            indent + "} catch {",
            indent + unit + "\(whole.name) = .failure(error)",
            indent + "}",
        ]
    }
}

extension CallSiteWriter {
    /// `func f()` → `func f() async`, and with `nonsending`, `nonisolated(nonsending) func f()
    /// async` (its code runs where its caller runs, as it did when it was synchronous).
    func signatureEdit(_ function: FunctionDeclSyntax, nonsending: Bool) -> LineEdit? {
        guard function.signature.effectSpecifiers?.asyncSpecifier == nil else { return nil }
        let keyword = converter.location(for: function.funcKeyword.positionAfterSkippingLeadingTrivia)
        let end = converter.location(for: function.signature.parameterClause.endPositionBeforeTrailingTrivia)
        let range = (keyword.line - 1)...(end.line - 1)
        var text = Array(lines[range].joined(separator: "\n").utf8)
        // Offsets in the joined lines: the later insertion first, so the earlier stays put.
        let offset = { (location: SourceLocation) in
            self.lines[(keyword.line - 1)..<(location.line - 1)].reduce(0) { $0 + $1.utf8.count + 1 }
                + location.column - 1
        }
        guard offset(end) <= text.count else { return nil }
        text.insert(contentsOf: Array(" async".utf8), at: offset(end))
        if nonsending { text.insert(contentsOf: Array("nonisolated(nonsending) ".utf8), at: offset(keyword)) }
        let written = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        return LineEdit(first: range.lowerBound, last: range.upperBound, lines: written.map(String.init))
    }
}
