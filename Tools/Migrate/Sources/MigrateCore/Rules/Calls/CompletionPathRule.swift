import SwiftSyntax

/// Every path through the function reaches its completion handler exactly once, last, and
/// only through calls that become awaits: the async version is the same code with each call
/// awaited and each call of the handler a `return` or a `throw`
/// (``CompletionCallRule``). A path that never calls the handler, calls it twice, or calls
/// it before other code runs leaves the function alone, with the line.
struct CompletionPathRule: DocumentedFunctionRule {
    static let summary =
        "Each path of the function reaches its completion handler once, as its last action, directly or in the "
        + "handler of a call that has an async counterpart (itself last): the calls become awaits, the handler's "
        + "calls `return` or `throw`. A `do` that does not reach the handler stays as it is, and each of its `catch` "
        + "clauses is a path too (`completion(.failure(e)); return` becomes `throw e`) or code that falls through. "
        + "A path that never calls it (a `return` in a handler with no call of it before it in its block, or in a "
        + "`do`; a call inside an `if`, `switch` or loop not counted; `guard let self else { return }` included), "
        + "calls it twice, runs code after it, or passes `(nil, nil)` is reported with its line and the function "
        + "left alone."

    /// What the walk needs: the file's text, the counterparts, and the call rules.
    /// The path's last call, awaited, is in `CompletionPathRule+AwaitedCall.swift`.
    struct Walk {
        /// Writes the handlers' code, with what the awaited calls' rules replace in it (`self?.`).
        var writer: CallSiteWriter
        let counterparts: AsyncCounterparts
        let planner: CallSitePlanner
        let index: SourceIndex
        /// Whether a function of the module the call reaches is settled: nil when converted
        /// (or not of the module), else why the call cannot be awaited yet.
        let pending: (AsyncCounterparts.Entry) -> FunctionLeave?
        var function: FunctionRewrite
        /// The code after the block being walked calls the handler too.
        var laterUses = false

        func line(_ node: some SyntaxProtocol) -> Int {
            writer.converter.location(for: node.positionAfterSkippingLeadingTrivia).line
        }

        func fail(_ reason: LeaveReason, _ node: some SyntaxProtocol, _ detail: String) -> FunctionLeave {
            FunctionLeave(reason: reason, line: line(node), detail: detail)
        }

        func uses(_ items: [some SyntaxProtocol]) -> Bool {
            CallRewrite.uses(function.completion, in: items)
        }

        /// The lines of `items`, a path of the function: `tail` when reaching its end ends the
        /// function, `atEnd` when nothing follows it in the text.
        mutating func path(
            _ items: [CodeBlockItemSyntax], indent: String, tail: Bool, atEnd: Bool, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            var lines: [String] = []
            var bound = bound
            for (offset, item) in items.enumerated() {
                let rest = Array(items[(offset + 1)...])
                let isLast = rest.isEmpty
                if let call = completionCall(item) ?? hop(item) {
                    lines += try completion(
                        call, item: item, rest: rest, indent: indent, tail: tail, atEnd: atEnd,
                        bound: bound)
                    return lines
                }
                if let statement = item.item.as(ReturnStmtSyntax.self) {
                    throw fail(.completionNeverCalled, statement, "`return` before calling `\(function.completion)`")
                }
                if !uses([item]) {
                    if let exit = ReturnFinder.first(in: item) {
                        throw fail(.completionNeverCalled, exit, "`return` before calling `\(function.completion)`")
                    }
                    if isLast, tail {
                        throw fail(
                            .completionNeverCalled, item, "the path ends without calling `\(function.completion)`")
                    }
                    lines += writer.leadingBlank(item) + writer.block([item], indent: indent, hop: false)
                    bound.formUnion(CompletionPathRule.bindings(item))
                    continue
                }
                if let ifExpr = ErrorOnlyRule.ifExpr(item) {
                    let outer = laterUses
                    laterUses = uses(rest)
                    lines += try branches(ifExpr, item: item, indent: indent, tail: tail && isLast, bound: bound)
                    laterUses = outer
                    continue
                }
                if let guardStmt = item.item.as(GuardStmtSyntax.self) {
                    let body = try path(
                        Array(guardStmt.body.statements), indent: indent + "    ", tail: false, atEnd: false,
                        bound: bound)
                    lines += writer.leadingComments(item, indent: indent)
                    lines += [indent + "guard " + guardStmt.conditions.trimmedDescription + " else {"] + body
                    lines.append(indent + "}")
                    bound.formUnion(CompletionPathRule.bindings(item))
                    continue
                }
                if let doStmt = item.item.as(DoStmtSyntax.self) {
                    lines += try caught(doStmt, item: item, indent: indent, bound: bound)
                    continue
                }
                if let call = CompletionPathRule.statementCall(item) {
                    guard isLast, tail else {
                        throw fail(
                            .completionReordered, item,
                            "the code after the call ran before its handler, and would run after the await")
                    }
                    lines += try awaited(call, item: item, indent: indent, atEnd: atEnd, bound: bound)
                    return lines
                }
                throw fail(
                    .completionEscapes, item,
                    "`\(function.completion)` is used in `\(item.trimmedDescription.prefix { $0 != "\n" })`")
            }
            if tail {
                // An empty path (an empty body or branch) ends without calling it too.
                throw FunctionLeave(
                    reason: .completionNeverCalled, line: items.last.map { line($0) } ?? function.line,
                    detail: "the path ends without calling `\(function.completion)`")
            }
            return lines
        }

        /// A call of the handler (or a hop around one): the outcome, with nothing after it but `return`.
        private mutating func completion(
            _ found: (call: FunctionCallExprSyntax, hop: Bool), item: CodeBlockItemSyntax, rest: [CodeBlockItemSyntax],
            indent: String, tail: Bool, atEnd: Bool, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            try checkRest(found.call, item: item, rest: rest, tail: tail)
            guard let outcome = CompletionCallRule.outcome(found.call, shape: function.shape, bound: bound) else {
                throw fail(
                    .completionEscapes, found.call,
                    "`\(found.call.trimmedDescription)`: not a value or an error this tool can show non-optional")
            }
            function.hops.append(found.hop)
            let comments =
                writer.leadingComments(item, indent: indent)
                + rest.flatMap {
                    writer.leadingComments($0, indent: indent)
                }
            return comments
                + CompletionCallRule.text(outcome, valueIsVoid: function.valueType == nil, atEnd: atEnd)
                .map { indent + $0 }
        }

        /// Nothing runs after the handler's call but `return`.
        func checkRest(
            _ call: FunctionCallExprSyntax, item: CodeBlockItemSyntax, rest: [CodeBlockItemSyntax], tail: Bool
        ) throws(FunctionLeave) {
            if let next = rest.first, !(rest.count == 1 && CallRewrite.endsWithReturn(rest)) {
                let twice = uses(rest)
                throw fail(
                    twice ? .completionTwice : .completionReordered, next,
                    twice
                        ? "`\(function.completion)` is called again after `\(call.trimmedDescription)`"
                        : "`\(next.trimmedDescription.prefix { $0 != "\n" })` ran after the completion")
            }
            if rest.isEmpty, !tail {
                throw fail(
                    laterUses ? .completionTwice : .completionReordered, item,
                    "the code after this block ran after `\(call.trimmedDescription)`; add `return` to convert")
            }
        }

        /// `if … { } else …` whose branches reach the handler.
        private mutating func branches(
            _ ifExpr: IfExprSyntax, item: CodeBlockItemSyntax, indent: String, tail: Bool, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            var lines = writer.leadingComments(item, indent: indent)
            var current: IfExprSyntax? = ifExpr
            var keyword = "if "
            while let branch = current {
                lines.append(indent + keyword + branch.conditions.trimmedDescription + " {")
                lines += try block(
                    Array(branch.body.statements), indent: indent, tail: tail,
                    bound: bound.union(CompletionPathRule.bindings(branch.conditions)))
                current = nil
                switch branch.elseBody {
                case .ifExpr(let next):
                    current = next
                    keyword = "} else if "
                case .codeBlock(let elseBlock):
                    lines.append(indent + "} else {")
                    lines += try block(Array(elseBlock.statements), indent: indent, tail: tail, bound: bound)
                case nil:
                    if tail {
                        throw fail(.completionNeverCalled, branch, "without `else`, the path ends without a call")
                    }
                }
            }
            lines.append(indent + "}")
            return lines
        }

        /// `do { … } catch { completion(.failure(…)); return }`: the `do` does not reach the
        /// handler and is kept as it is; each `catch` is a path that calls it and returns (now
        /// `throw`), or code that falls through as before.
        private mutating func caught(
            _ statement: DoStmtSyntax, item: CodeBlockItemSyntax, indent: String, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            let body = Array(statement.body.statements)
            guard !uses(body), statement.throwsClause == nil, !statement.catchClauses.isEmpty else {
                throw fail(
                    .completionEscapes, item,
                    "`\(function.completion)` is used in `\(item.trimmedDescription.prefix { $0 != "\n" })`")
            }
            if let exit = body.lazy.compactMap({ ReturnFinder.first(in: $0) }).first {
                throw fail(.completionNeverCalled, exit, "`return` before calling `\(function.completion)`")
            }
            var lines = writer.leadingLines(item, indent: indent) + [indent + "do {"]
            lines += writer.block(body, indent: indent + "    ", hop: false)
            for clause in statement.catchClauses {
                let pattern = clause.catchItems.trimmedDescription
                // `catch` binds `error`; a pattern binds its own names.
                let names =
                    pattern.isEmpty
                    ? ["error"]
                    : Set(
                        clause.catchItems.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
                            guard case .identifier(let name) = token.tokenKind,
                                token.parent?.is(IdentifierPatternSyntax.self) == true
                            else { return nil }
                            return name
                        })
                lines.append(indent + "} catch" + (pattern.isEmpty ? "" : " " + pattern) + " {")
                lines += try block(
                    Array(clause.body.statements), indent: indent, tail: false, bound: bound.union(names))
            }
            return lines + [indent + "}"]
        }

        /// A branch: a path when it reaches the handler, else its code as it was (falling through).
        private mutating func block(
            _ items: [CodeBlockItemSyntax], indent: String, tail: Bool, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            if uses(items) || tail {
                return try path(items, indent: indent + "    ", tail: tail, atEnd: false, bound: bound)
            }
            if let exit = items.lazy.compactMap({ ReturnFinder.first(in: $0) }).first {
                throw fail(.completionNeverCalled, exit, "`return` before calling `\(function.completion)`")
            }
            return items.flatMap { writer.leadingBlank($0) + writer.block([$0], indent: indent + "    ", hop: false) }
        }

        /// `completion(nil, nil)` anywhere in the function, for a `(T?, Error?)` handler: the async
        /// version returns a value or throws, so that path cannot be kept (its shim would deliver an
        /// error where the caller got neither).
        func screenNeither(_ body: CodeBlockSyntax) throws(FunctionLeave) {
            guard case .optionalValueAndError = function.shape,
                let call = NeitherFinder.first(in: body, completion: function.completion)
            else { return }
            throw fail(
                .completionNeither, call,
                "`\(call.trimmedDescription)` passes neither a value nor an error: the async version must return one "
                    + "or throw")
        }

        /// `completion(…)` as a statement.
        func completionCall(_ item: CodeBlockItemSyntax) -> (call: FunctionCallExprSyntax, hop: Bool)? {
            guard let call = CompletionPathRule.statementCall(item),
                call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == function.completion
            else { return nil }
            return (call, false)
        }

        /// `DispatchQueue.main.async { completion(…) }` (``CompletionHopRule``).
        func hop(_ item: CodeBlockItemSyntax) -> (call: FunctionCallExprSyntax, hop: Bool)? {
            guard let inner = CompletionHopRule.peel(item), let found = completionCall(inner) else { return nil }
            return (found.call, true)
        }
    }

    static let noError =
        "the awaited call's handler receives no error: released uncalled, it now fails the function with "
        + "`AbandonedPromiseError` (before, the completion was never called)"

    /// The note on a `(T?, Error?)` handler passed on as it came.
    static func neitherPassed(_ callee: String) -> String {
        "`(nil, nil)` passed on: where `\(callee)` calls its handler with neither a value nor an error, its async "
            + "form throws `InvalidCallbackError`, which the shim now delivers as `(nil, error)` (before, the "
            + "completion got `(nil, nil)`)"
    }

    /// `f(…)` or `x.f(…)` as a statement of its own (or `_ = f(…)`).
    static func statementCall(_ item: CodeBlockItemSyntax) -> FunctionCallExprSyntax? {
        if let call = item.item.as(FunctionCallExprSyntax.self) { return call }
        if let call = item.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self) {
            return call
        }
        if let sequence = item.item.as(SequenceExprSyntax.self), sequence.elements.count == 3,
            sequence.elements.first?.trimmedDescription == "_",
            sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) ?? false
        {
            return sequence.elements.last?.as(FunctionCallExprSyntax.self)
        }
        return nil
    }

    /// The name a call is made by, and its labels before a trailing closure.
    static func nameAndLabels(_ call: FunctionCallExprSyntax) -> (String, [String?]) {
        let name =
            call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
        return (name, call.arguments.map { $0.label?.text })
    }

    /// The names `if let` / `guard let` bind (not optional past the test).
    static func bindings(_ node: some SyntaxProtocol) -> Set<String> {
        Set(
            node.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
                guard case .identifier(let name) = token.tokenKind,
                    let binding = token.parent?.parent?.as(OptionalBindingConditionSyntax.self),
                    binding.pattern.trimmedDescription == name
                else { return nil }
                return name
            })
    }
}

/// The `return`s of a statement, outside the closures in it.
final class ReturnFinder: SyntaxVisitor {
    var found: [ReturnStmtSyntax] = []

    static func first(in node: some SyntaxProtocol) -> ReturnStmtSyntax? {
        all(in: node).first
    }

    static func all(in node: some SyntaxProtocol) -> [ReturnStmtSyntax] {
        let finder = ReturnFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }

    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        found.append(node)
        return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// The first call `completion(nil, nil)`, closures included.
private final class NeitherFinder: SyntaxVisitor {
    let completion: String
    var found: FunctionCallExprSyntax?

    init(completion: String) {
        self.completion = completion
        super.init(viewMode: .sourceAccurate)
    }

    static func first(in node: some SyntaxProtocol, completion: String) -> FunctionCallExprSyntax? {
        let finder = NeitherFinder(completion: completion)
        finder.walk(node)
        return finder.found
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == completion,
            node.arguments.count == 2, node.arguments.allSatisfy({ $0.expression.is(NilLiteralExprSyntax.self) })
        {
            found = node
        }
        return .visitChildren
    }
}
