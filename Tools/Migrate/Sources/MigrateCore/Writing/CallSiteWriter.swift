import SwiftSyntax

/// A run of whole lines replaced by others (0-based, inclusive).
struct LineEdit: Equatable {
    var first: Int
    var last: Int
    var lines: [String]
}

/// Writes the straight-line async code of a settled call: `do { let v = try await f(…) S } catch { F }`,
/// the handler's code moved as it was written (comments and layout kept, re-indented).
struct CallSiteWriter {
    let source: [UInt8]
    let converter: SourceLocationConverter
    let lines: [String]
    /// Text written in place of these bytes wherever they are written (``CallRewrite/replacements``).
    var replacements: [(Range<Int>, String)] = []

    init(source: String, tree: SourceFileSyntax, path: String) {
        self.source = Array(source.utf8)
        self.converter = SourceLocationConverter(fileName: path, tree: tree)
        self.lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The call's edit, and for a test waiting on an expectation (``ExpectationTest``) the
    /// method made `async throws` and the expectation's and the wait's lines removed.
    func edits(_ rewrite: CallRewrite) -> [LineEdit]? {
        if !rewrite.replacements.isEmpty, replacements.isEmpty {
            var writer = self
            writer.replacements = rewrite.replacements
            return writer.edits(rewrite)
        }
        if let test = rewrite.confirmation {  // the call's code replaces the whole `confirmation { }`
            var whole = rewrite
            whole.statement = test.statement
            return edit(whole).map { [$0] }
        }
        if let resumed = rewrite.resumed, let entry = rewrite.entry {
            guard let call = edit(replacing: resumed.expression, with: "try await " + callText(rewrite, entry: entry))
            else { return nil }
            let removals = resumed.removed.map(removal)
            return removals.contains(where: { $0 == nil }) ? nil : [call] + removals.compactMap { $0 }
        }
        guard let call = edit(rewrite) else { return nil }
        guard let test = rewrite.expectation else { return [call] }
        var result = [call]
        // The method's other blocking waits, awaited now that it is async.
        for wait in test.otherWaits {
            guard let text = ExpectationTestRule.awaitableWait(wait), let edit = replacing(wait, with: text) else {
                return nil
            }
            result.append(edit)
        }
        if test.keepsWaiting {
            if ExpectationTestRule.awaitedFulfillment(test.wait) == nil {
                guard let wait = fulfillmentEdit(test) else { return nil }
                result.append(wait)
            }
        } else {
            for item in [test.declaration, test.wait] {
                guard let removal = removal(of: item) else { return nil }
                result.append(removal)
            }
        }
        if let signature = asyncEdit(test.function) {
            // An edit of the call's own line (a one-line method) is not written.
            guard !result.contains(where: { $0.first <= signature.last && signature.first <= $0.last }) else {
                return nil
            }
            result.append(signature)
        } else if test.function.signature.effectSpecifiers?.asyncSpecifier == nil {
            return nil
        }
        guard let helper = test.helper else { return result }
        // A helper that tests call: each calling method made `async throws`, each call awaited.
        for function in helper.functions {
            guard let signature = asyncEdit(function) else { return nil }
            result.append(signature)
        }
        for call in helper.calls {
            // Two calls in one statement, or on one line: not written (the call is left alone).
            guard let edit = awaitEdit(call),
                !result.contains(where: { $0.first <= edit.last && edit.first <= $0.last })
            else { return nil }
            result.append(edit)
        }
        return result
    }

    /// `func test() {` → `func test() async throws {` (`throws` already there: ` async` before
    /// it; `async` already there: ` throws` after it); nil when it is `async throws` already.
    /// With `throwing` false, only ` async` is added.
    func asyncEdit(_ function: FunctionDeclSyntax, throwing: Bool = true) -> LineEdit? {
        let effects = function.signature.effectSpecifiers
        switch (effects?.asyncSpecifier, effects?.throwsClause) {
        case (.some, .some): return nil
        case (.some(let async), nil):
            return throwing ? inserting(" throws", at: async.endPositionBeforeTrailingTrivia) : nil
        case (nil, .some):
            return inserting(" async", at: function.signature.parameterClause.endPositionBeforeTrailingTrivia)
        case (nil, nil):
            return inserting(
                throwing ? " async throws" : " async",
                at: function.signature.parameterClause.endPositionBeforeTrailingTrivia)
        }
    }

    /// `wait(for: [done], timeout: t)` or `waitForExpectations(timeout: t)` → `await
    /// fulfillment(of: [done], timeout: t)`, the wait an async test may make.
    private func fulfillmentEdit(_ test: ExpectationTest) -> LineEdit? {
        guard let call = test.wait.item.as(FunctionCallExprSyntax.self),
            let timeout = call.arguments.first(where: { $0.label?.text == "timeout" }),
            let name = ExpectationTestRule.expectationName(test.declaration)
        else { return nil }
        return replacing(
            test.wait, with: "await fulfillment(of: [\(name)], timeout: \(timeout.expression.trimmedDescription))")
    }

    /// The lines of `item` (its own) replaced by one line of `text`, at its indent.
    private func replacing(_ item: CodeBlockItemSyntax, with text: String) -> LineEdit? {
        guard let lines = ownLines(item) else { return nil }
        let indent = String(self.lines[lines.lowerBound].prefix { $0 == " " || $0 == "\t" })
        return LineEdit(first: lines.lowerBound, last: lines.upperBound, lines: [indent + text])
    }

    /// `helper(…)` → `try await helper(…)`; in an assertion, `let helperResult = try await
    /// helper(…)` on the lines before it, and the assertion reads `helperResult`.
    private func awaitEdit(_ call: WaitingHelper.Call) -> LineEdit? {
        guard let (statement, name) = call.hoisted else {
            return inserting("try await ", at: call.node.positionAfterSkippingLeadingTrivia)
        }
        guard let lines = ownLines(statement) else { return nil }
        let indent = String(self.lines[lines.lowerBound].prefix { $0 == " " || $0 == "\t" })
        let text = { (start: AbsolutePosition, end: AbsolutePosition) in
            String(decoding: self.source[start.utf8Offset..<end.utf8Offset], as: UTF8.self)
        }
        let callStart = call.node.positionAfterSkippingLeadingTrivia
        let callEnd = call.node.endPositionBeforeTrailingTrivia
        let hoisted = "let \(name) = try await " + text(callStart, callEnd)
        let assertion =
            text(statement.positionAfterSkippingLeadingTrivia, callStart) + name
            + text(callEnd, statement.endPositionBeforeTrailingTrivia)
        // The first line of each statement indented as the assertion; the others as written.
        var result: [String] = []
        for statement in [hoisted, assertion] {
            let statementLines = statement.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            result += [indent + statementLines[0]] + statementLines.dropFirst()
        }
        return LineEdit(first: lines.lowerBound, last: lines.upperBound, lines: result)
    }

    /// The line at `position` with `text` inserted there.
    func inserting(_ text: String, at position: AbsolutePosition) -> LineEdit? {
        let end = converter.location(for: position)
        let line = Array(lines[end.line - 1].utf8)
        guard end.column - 1 <= line.count else { return nil }
        let new =
            String(decoding: line[..<(end.column - 1)], as: UTF8.self) + text
            + String(decoding: line[(end.column - 1)...], as: UTF8.self)
        return LineEdit(first: end.line - 1, last: end.line - 1, lines: [new])
    }

    /// The edit that removes a statement alone on its lines (between two blank lines, one of them goes too).
    private func removal(of item: CodeBlockItemSyntax) -> LineEdit? {
        guard let lines = ownLines(item) else { return nil }
        let blank = { (line: Int) in
            self.lines.indices.contains(line) && self.lines[line].allSatisfy(\.isWhitespace)
        }
        let last = blank(lines.lowerBound - 1) && blank(lines.upperBound + 1) ? lines.upperBound + 1 : lines.upperBound
        return LineEdit(first: lines.lowerBound, last: last, lines: [])
    }

    /// An expression written as `text` in its place (what comes before and after it on its
    /// first and last lines kept); the comments in it go above its first line.
    private func edit(replacing expression: ExprSyntax, with text: String) -> LineEdit? {
        let start = converter.location(for: expression.positionAfterSkippingLeadingTrivia)
        let end = converter.location(for: expression.endPositionBeforeTrailingTrivia)
        let first = Array(lines[start.line - 1].utf8)
        let last = Array(lines[end.line - 1].utf8)
        guard start.column - 1 <= first.count, end.column - 1 <= last.count else { return nil }
        let indent = String(lines[start.line - 1].prefix { $0 == " " || $0 == "\t" })
        let comments = comments(in: expression, outside: []).map { indent + $0 }
        let line =
            String(decoding: first[..<(start.column - 1)], as: UTF8.self) + text
            + String(decoding: last[(end.column - 1)...], as: UTF8.self)
        return LineEdit(first: start.line - 1, last: end.line - 1, lines: comments + [line])
    }

    /// The lines of a statement alone on them (nothing else before or after it), 0-based.
    func ownLines(_ item: CodeBlockItemSyntax) -> ClosedRange<Int>? {
        let start = converter.location(for: item.positionAfterSkippingLeadingTrivia)
        let end = converter.location(for: item.endPositionBeforeTrailingTrivia)
        let first = lines[start.line - 1]
        guard first.prefix(while: { $0 == " " || $0 == "\t" }).count == start.column - 1,
            lines[end.line - 1].utf8.count == end.column - 1
        else { return nil }
        return (start.line - 1)...(end.line - 1)
    }

    /// Whether `name` appears as an identifier in `items` (a read, a shorthand `if let`, an
    /// interpolation).
    static func reads(_ name: String, in items: [CodeBlockItemSyntax]) -> Bool {
        items.contains { item in
            item.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(name) }
        }
    }

    func edit(_ rewrite: CallRewrite) -> LineEdit? {
        if let stream = rewrite.stream { return edit(rewrite, stream: stream) }
        guard let statement = rewrite.statement, let branches = rewrite.branches, let entry = rewrite.entry else {
            return nil
        }
        let start = converter.location(for: statement.positionAfterSkippingLeadingTrivia)
        let end = converter.location(for: statement.endPositionBeforeTrailingTrivia)
        let firstLine = lines[start.line - 1]
        let indent = String(firstLine.prefix { $0 == " " || $0 == "\t" })
        guard indent.count == start.column - 1 else { return nil }  // something before the call on its line
        let suffix = String(lines[end.line - 1].utf8.dropFirst(end.column - 1)).map { String($0) } ?? ""

        let call = callText(rewrite, entry: entry)
        let awaited: String
        // A value the success code never reads is discarded (`let value` unread is a warning).
        if branches.ignoresError {
            awaited = "try? await \(call)"
        } else if let value = branches.valueName, Self.reads(value, in: branches.success) {
            awaited = "let \(value) = try await \(call)"
        } else if entry.shape.valueText == nil {
            awaited = "try await \(call)"
        } else {
            awaited = "_ = try await \(call)"
        }
        let hop = rewrite.hopsToMain && !(rewrite.context?.isMainActor ?? false)
        // A test's `fulfill()` calls go (``ExpectationTestRule``), each on lines of its own.
        var dropped = Set<Int>()
        for fulfill in rewrite.expectation?.fulfills ?? [] {
            guard let lines = ownLines(fulfill) else { return nil }
            dropped.formUnion(lines)
        }
        let moved = [branches.success, branches.failure, branches.tail].compactMap { items in
            items.first.map { $0.position.utf8Offset..<items.last!.endPosition.utf8Offset }
        }
        var result = comments(in: statement, outside: moved).map { indent + $0 }
        let captures = (rewrite.hopCaptures, rewrite.hopCopies)
        let tail = block(branches.tail, indent: indent, hop: false, dropping: dropped)
        if let whole = rewrite.wholeResult {
            if rewrite.scopesWholeResult {
                let inner = indent + Self.unit(indent)
                result += [indent + "do {"] + wholeResultLines(whole, call: call, indent: inner)
                result += block(branches.tail, indent: inner, hop: false, dropping: dropped) + [indent + "}"]
            } else {
                result += wholeResultLines(whole, call: call, indent: indent) + tail
            }
            if !suffix.isEmpty { result[result.count - 1] += suffix }
            return LineEdit(first: start.line - 1, last: end.line - 1, lines: result)
        }
        // The error ends the test, or is ignored: the success code follows the await.
        if rewrite.propagates || branches.ignoresError {
            result += [indent + awaited]
            result += block(branches.success, indent: indent, hop: hop, captures: captures, dropping: dropped) + tail
            if !suffix.isEmpty { result[result.count - 1] += suffix }
            return LineEdit(first: start.line - 1, last: end.line - 1, lines: result)
        }
        result += [indent + "do {", indent + Self.unit(indent) + awaited]
        result += block(
            branches.success, indent: indent + Self.unit(indent), hop: hop, captures: captures, dropping: dropped)
        let closing = tail.isEmpty ? suffix : ""
        result += catchLines(branches, indent: indent, suffix: closing, hop: hop, captures: captures, dropping: dropped)
        if !tail.isEmpty { result += tail.dropLast() + [tail.last! + suffix] }
        return LineEdit(first: start.line - 1, last: end.line - 1, lines: result)
    }

    /// `} catch { failure }`, closing the `do` (`catch` binds `error` itself; a typed failure
    /// in a test, `let error as Type`).
    func catchLines(
        _ branches: HandlerBranches, indent: String, suffix: String, hop: Bool,
        captures: ([String], [(name: String, type: String)]) = ([], []), dropping: Set<Int> = []
    ) -> [String] {
        var binding = branches.errorName.map { $0 == "error" ? "" : " let \($0)" } ?? ""
        if let type = branches.errorType { binding = " let \(branches.errorName ?? "error") as \(type)" }
        let failure = block(
            branches.failure, indent: indent + Self.unit(indent), hop: hop, captures: captures, dropping: dropping)
        if failure.isEmpty { return [indent + "} catch\(binding) {}" + suffix] }
        return [indent + "} catch\(binding) {"] + failure + [indent + "}" + suffix]
    }

    /// `api.load(id: 1)`: the callee as written (renamed when the counterpart has another
    /// name), with the arguments the counterpart keeps.
    func callText(_ rewrite: CallRewrite, entry: AsyncCounterparts.Entry) -> String {
        var callee = rewrite.call.calledExpression.trimmedDescription
        if entry.asyncName != entry.name {
            if let member = rewrite.call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base {
                callee = base.trimmedDescription + "." + entry.asyncName
            } else {
                callee = entry.asyncName
            }
        }
        let arguments = zip(rewrite.call.arguments, rewrite.argumentParameters)
            .filter { entry.kept.contains($0.1) }
            .map { argument, _ in
                (argument.label.map { $0.text + ": " } ?? "") + argument.expression.trimmedDescription
            }
        return callee + "(" + arguments.joined(separator: ", ") + ")"
    }

    /// The statements' text at `indent` (inside `await MainActor.run { }` for a hop, with the
    /// `captures` it reads), without the source lines `dropping` (0-based), with the tokens at
    /// `replacing` (byte offsets in the file) written as their new text.
    func block(
        _ items: [CodeBlockItemSyntax], indent: String, hop: Bool,
        captures: ([String], [(name: String, type: String)]) = ([], []), dropping: Set<Int> = [],
        replacing: [(Range<Int>, String)] = []
    ) -> [String] {
        guard let first = items.first, let last = items.last else { return [] }
        let span = first.position.utf8Offset..<last.endPosition.utf8Offset
        var bytes = Array(source[span])
        let replaced =
            replacing + replacements.filter { span.contains($0.0.lowerBound) && $0.0.upperBound <= span.upperBound }
        for (range, new) in replaced.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            let offset = first.position.utf8Offset
            bytes.replaceSubrange((range.lowerBound - offset)..<(range.upperBound - offset), with: Array(new.utf8))
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while let end = text.last, end.isWhitespace { text.removeLast() }
        var body = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A first statement on the line of what came before it (`case .success: f()`) is
        // indented as its column says.
        if !text.hasPrefix("\n"), let head = body.first {
            let column = converter.location(for: first.positionAfterSkippingLeadingTrivia).column - 1
            body[0] = String(repeating: " ", count: column) + head.drop { $0 == " " || $0 == "\t" }
        }
        let firstLine = converter.location(for: first.position).line - 1
        body = body.enumerated().filter { !dropping.contains(firstLine + $0.offset) }.map(\.element)
        while let head = body.first, head.allSatisfy(\.isWhitespace) { body.removeFirst() }
        // The code's own margin; a line comment (Xcode's "comment out" writes `//` in column 1)
        // does not set it, and loses only the blanks it has.
        let leading = { (line: String) in line.prefix { $0 == " " || $0 == "\t" }.count }
        let code = body.filter {
            !$0.allSatisfy(\.isWhitespace) && !$0.drop { $0 == " " || $0 == "\t" }.hasPrefix("//")
        }
        let margin = (code.isEmpty ? body.filter { !$0.allSatisfy(\.isWhitespace) } : code).map(leading).min() ?? 0
        let inner = hop ? indent + Self.unit(indent) : indent
        let moved = body.map {
            $0.allSatisfy(\.isWhitespace) ? "" : inner + String($0.dropFirst(min(margin, leading($0))))
        }
        guard hop else { return moved }
        let used = captures.0.filter { CallRewrite.uses($0, in: items) }
        let list = used.isEmpty ? "" : " [" + used.joined(separator: ", ") + "] in"
        let copies = captures.1.filter { CallRewrite.uses($0.name, in: items) }.map {
            indent + "let \($0.name): \($0.type) = \($0.name)"
        }
        return copies + [indent + "await MainActor.run {" + list] + moved + [indent + "}"]
    }
}

/// The file's lines with the edits applied (they do not overlap).
func applying(_ edits: [LineEdit], to lines: [String]) -> [String] {
    var result = lines
    for edit in edits.sorted(by: { $0.first > $1.first }) {
        result.replaceSubrange(edit.first...edit.last, with: edit.lines)
    }
    return result
}

/// The unified diff of the edits to a file's lines, with three lines of context, as
/// `git apply -p0` and `patch -p0` read it.
func unifiedDiff(modifying path: String, lines old: [String], edits: [LineEdit]) -> String {
    let sorted = edits.sorted { $0.first < $1.first }
    var result = "--- \(path)\n+++ \(path)\n"
    var delta = 0
    var index = 0
    while index < sorted.count {
        var group = [sorted[index]]
        while index + 1 < sorted.count, sorted[index + 1].first - group.last!.last <= 7 {
            index += 1
            group.append(sorted[index])
        }
        index += 1
        let from = max(0, group[0].first - 3)
        let to = min(old.count, group.last!.last + 1 + 3)
        let added = group.reduce(0) { $0 + $1.lines.count - ($1.last - $1.first + 1) }
        result += "@@ -\(from + 1),\(to - from) +\(from + 1 + delta),\(to - from + added) @@\n"
        var position = from
        for edit in group {
            for line in old[position..<edit.first] { result += " " + line + "\n" }
            for line in old[edit.first...edit.last] { result += "-" + line + "\n" }
            for line in edit.lines { result += "+" + line + "\n" }
            position = edit.last + 1
        }
        for line in old[position..<to] { result += " " + line + "\n" }
        delta += added
    }
    return result
}
