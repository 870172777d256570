import SwiftSyntax

/// The edits of ``SyncPropagation``: a call awaited, a root that starts a task.
extension CallSiteWriter {
    /// `f(…)` → `await f(…)` (after a `try`: `try await f(…)`).
    func awaitInsertion(_ call: FunctionCallExprSyntax) -> LineEdit? {
        inserting("await ", at: call.positionAfterSkippingLeadingTrivia)
    }

    /// The statement `f(…)`, alone on its lines, → `Task { await f(…) }` (a call written on
    /// several lines goes inside the task's braces, one level deeper).
    func taskEdit(_ statement: CodeBlockItemSyntax) -> LineEdit? {
        guard let range = ownLines(statement) else { return nil }
        let indent = String(lines[range.lowerBound].prefix { $0 == " " || $0 == "\t" })
        let text = statement.trimmedDescription
        guard range.count > 1 else {
            return LineEdit(first: range.lowerBound, last: range.upperBound, lines: [indent + "Task { await \(text) }"])
        }
        let unit = Self.unit(indent)
        let body = lines[range].enumerated().map { offset, line in
            offset == 0 ? indent + unit + "await " + line.drop { $0 == " " || $0 == "\t" } : unit + line
        }
        return LineEdit(
            first: range.lowerBound, last: range.upperBound, lines: [indent + "Task {"] + body + [indent + "}"])
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
