import SwiftSyntax

/// The handlers of a function whose generated counterpart is a stream form: the one that
/// receives the values, and the completion that ends them (as the generator pairs them).
struct StreamHandlers {
    /// The values' handler, and the shape of what it receives.
    var values: Int
    var valueShape: HandlerShape
    /// The terminal completion (`(Error?)`, `()`), if the function has one.
    var completion: Int?
    var completionShape: HandlerShape?

    /// In a call's labels, the first of several trailing closures (which has no label).
    static let trailingClosure = "{trailing closure}"

    /// A call's argument labels, with its trailing closures when there are several
    /// (`f(id: 1) { v in } completion: { e in }`: `id`, the first trailing closure, `completion`).
    static func labels(of call: FunctionCallExprSyntax) -> [String?] {
        let labels = call.arguments.map { $0.label?.text }
        guard call.trailingClosure != nil, !call.additionalTrailingClosures.isEmpty else { return labels }
        return labels + [trailingClosure] + call.additionalTrailingClosures.map { $0.label.text }
    }

    /// One trailing closure (the handler), not several (which ``labels(of:)`` lists).
    static func hasOneTrailingClosure(_ call: FunctionCallExprSyntax) -> Bool {
        call.trailingClosure != nil && call.additionalTrailingClosures.isEmpty
    }

    /// Whether an argument with `label` fills `parameter`: the same label, or the first of
    /// several trailing closures and a closure parameter.
    static func fills(_ label: String?, _ parameter: Parameter) -> Bool {
        label == trailingClosure ? TypeText.containsFunctionType(parameter.type) : parameter.label == label
    }

    /// The call's arguments in the order ``labels(of:)`` gives them, trailing closures last.
    static func arguments(of call: FunctionCallExprSyntax) -> [ExprSyntax] {
        var result = call.arguments.map(\.expression)
        if let trailing = call.trailingClosure { result.append(ExprSyntax(trailing)) }
        return result + call.additionalTrailingClosures.map { ExprSyntax($0.closure) }
    }
}

extension AsyncFormPlanner {
    /// The handlers of a function that gets a stream form, as ``plan(_:)`` pairs them: a
    /// values' handler beside a terminal completion (``ValuesAndCompletionRule``), or a
    /// single handler that receives the values itself. nil for other layouts (an error
    /// handler beside the values, an observer passed back), which the call-site rules leave.
    func streamHandlers(_ site: FunctionSite) -> StreamHandlers? {
        let parameters = site.parameters
        if let pair = ValuesAndCompletionRule().decide(site, in: context) {
            guard let values = handlerType(parameters[pair.values]),
                let shape = ShapeRule().decide(values, in: context),
                let end = handlerType(parameters[pair.completion]).flatMap({
                    HandlerShape($0, isError: index.isError)
                })
            else { return nil }
            return StreamHandlers(
                values: pair.values, valueShape: shape, completion: pair.completion, completionShape: end)
        }
        let handlers = parameters.indices.filter { handlerType(parameters[$0]) != nil }
        guard handlers.count == 1, let closure = handlerType(parameters[handlers[0]]),
            (ObserverRule().decide((site, closure), in: context) ?? 0) == 0,
            let shape = ShapeRule().decide(closure, in: context)
        else { return nil }
        return StreamHandlers(values: handlers[0], valueShape: shape)
    }
}

/// What ``StreamCallRule`` settles for a multi-shot call.
struct StreamCall {
    var handlers: StreamHandlers
    /// The completion written at the call (nil when the call does not pass one).
    var completion: ClosureExprSyntax?
    /// The values' handler's `return`s (byte ranges in the file), which become `continue`.
    var returns: [Range<Int>] = []
    /// The operation ends with a completion: the loop is followed by `try Task.checkCancellation()`,
    /// so that a cancelled wait runs the failure code, not the success code.
    var checksCancellation: Bool { completion != nil }
}

extension StreamCall {
    /// The `return`s of a handler's own statements (not of closures or functions in them),
    /// each a byte range; nil when one is in a loop of the handler (`continue` would go to it).
    static func returns(in items: [CodeBlockItemSyntax]) -> [Range<Int>]? {
        final class Finder: SyntaxVisitor {
            var found: [ReturnStmtSyntax] = []
            var inLoop = false
            private var loops = 0
            override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
                found.append(node)
                if loops > 0 { inLoop = true }
                return .skipChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind { enter() }
            override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind { enter() }
            override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind { enter() }
            override func visitPost(_ node: ForStmtSyntax) { loops -= 1 }
            override func visitPost(_ node: WhileStmtSyntax) { loops -= 1 }
            override func visitPost(_ node: RepeatStmtSyntax) { loops -= 1 }
            private func enter() -> SyntaxVisitorContinueKind {
                loops += 1
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        for item in items { finder.walk(item) }
        guard !finder.inLoop else { return nil }
        return finder.found.map {
            let keyword = $0.returnKeyword
            return keyword.positionAfterSkippingLeadingTrivia
                .utf8Offset..<keyword.endPositionBeforeTrailingTrivia
                .utf8Offset
        }
    }
}

extension CallSiteWriter {
    /// The byte ranges of runs of statements that move (empty runs left out).
    static func ranges(_ runs: [[CodeBlockItemSyntax]]) -> [Range<Int>] {
        runs.compactMap { items in items.first.map { $0.position.utf8Offset..<items.last!.endPosition.utf8Offset } }
    }

    /// `do { for try await v in f(…) { values } [try Task.checkCancellation()] success } catch { failure }`.
    func edit(_ rewrite: CallRewrite, stream: StreamCall) -> LineEdit? {
        guard let statement = rewrite.statement, let branches = rewrite.branches, let entry = rewrite.entry else {
            return nil
        }
        let start = converter.location(for: statement.positionAfterSkippingLeadingTrivia)
        let end = converter.location(for: statement.endPositionBeforeTrailingTrivia)
        let indent = String(lines[start.line - 1].prefix { $0 == " " || $0 == "\t" })
        guard indent.count == start.column - 1 else { return nil }  // something before the call on its line
        let suffix = String(lines[end.line - 1].utf8.dropFirst(end.column - 1)).map { String($0) } ?? ""
        let moved = Self.ranges([rewrite.body, branches.success, branches.failure])
        var result = comments(in: statement, outside: moved).map { indent + $0 }
        let loop = "for try await \(branches.valueName ?? "_") in \(callText(rewrite, entry: entry)) {"
        let values = block(
            rewrite.body, indent: indent + "        ", hop: false, replacing: stream.returns.map { ($0, "continue") })
        result += [indent + "do {", indent + "    " + loop + (values.isEmpty ? "}" : "")]
        if !values.isEmpty { result += values + [indent + "    }"] }
        if stream.checksCancellation { result.append(indent + "    try Task.checkCancellation()") }
        result += block(branches.success, indent: indent + "    ", hop: false)
        result += catchLines(branches, indent: indent, suffix: suffix, hop: false)
        return LineEdit(first: start.line - 1, last: end.line - 1, lines: result)
    }
}
