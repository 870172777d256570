import SwiftSyntax

/// The handler ran after everything that followed the call: the rewritten call must be
/// the last thing its context runs, so that nothing moves across it and an early `return`
/// in the handler (which ended the handler) now ends the same work.
struct StatementOrderRule: CallRule {
    static let summary =
        "Nothing runs after the call in its context (no statement after it up to the end, no loop, no `defer`): "
        + "code that ran before the handler cannot move after it, and an early `return` keeps its meaning. (An "
        + "async test's `await fulfillment(of:)` of expectations the handler fulfils waited for it: it may follow.)"

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        guard let statement = rewrite.statement, let callContext = rewrite.context else { return .proceed(rewrite) }
        var node = Syntax(statement)
        while node.id != callContext.body.id {
            // A test waited for the handler: what follows the block that waits, and a loop's
            // next round, ran after it (``ExpectationTestRule``).
            if rewrite.expectation != nil, node.id != statement.id { break }
            if let item = node.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self) {
                let items = Array(list)
                let position = items.firstIndex { $0.id == item.id } ?? items.count - 1
                // A test's `wait` for the handler goes with the call, and the assertions after it
                // ran after the handler (``ExpectationTestRule``).
                // An async test's `await fulfillment(of:)` of expectations this handler fulfils
                // waited for it: it now waits once the handler's code has run.
                let after = items[(position + 1)...].filter {
                    !(rewrite.expectation?.follows($0) ?? false) && !Self.awaitsThisHandler($0, rewrite)
                }.count
                if after > 0 {
                    let first = items[position + 1].trimmedDescription.prefix { $0 != "\n" }
                    return .leave(
                        .statementsAfter,
                        "\(after) statement\(after == 1 ? "" : "s") after it (`\(first)`…) ran before the handler")
                }
                if items.contains(where: { $0.item.is(DeferStmtSyntax.self) }) {
                    return .leave(.statementsAfter, "a `defer` ran before the handler")
                }
            }
            if node.is(ForStmtSyntax.self) || node.is(WhileStmtSyntax.self) || node.is(RepeatStmtSyntax.self) {
                return .leave(.statementsAfter, "in a loop: the next iteration ran before the handler")
            }
            if node.is(GuardStmtSyntax.self) || node.is(DeferStmtSyntax.self) {
                return .leave(.statementsAfter, "in a `guard` or `defer`")
            }
            guard let parent = node.parent else { break }
            node = parent
        }
        // A function that returns a value ends with `return`; a one-expression body returns the call's result.
        // (A helper that waits returns after the wait: ``ExpectationTestRule``.)
        if rewrite.expectation == nil, let function = callContext.body.as(FunctionDeclSyntax.self),
            let type = function.signature.returnClause?.type,
            !TypeText.isVoid(type)
        {
            return .leave(.keptHandle, "the function returns the call's result")
        }
        if let closure = callContext.body.as(ClosureExprSyntax.self), closure.statements.count == 1,
            rewrite.entry?.returnsValue ?? false, !Self.isDiscardedTask(closure)
        {
            return .leave(.keptHandle, "the closure returns the call's result")
        }
        return .proceed(rewrite)
    }

    /// `await fulfillment(of: [a, …])` where the handler fulfils each of them (`a.fulfill()`).
    private static func awaitsThisHandler(_ item: CodeBlockItemSyntax, _ rewrite: CallRewrite) -> Bool {
        guard let names = ExpectationTestRule.awaitedFulfillment(item), let handler = rewrite.handler else {
            return false
        }
        let tokens = Array(handler.tokens(viewMode: .sourceAccurate))
        return names.allSatisfy { name in
            tokens.indices.dropLast(2).contains {
                tokens[$0].tokenKind == .identifier(name) && tokens[$0 + 1].tokenKind == .period
                    && tokens[$0 + 2].text == "fulfill"
            }
        }
    }

    /// `Task { … }` as a statement of its own: nothing reads what its closure returns.
    private static func isDiscardedTask(_ closure: ClosureExprSyntax) -> Bool {
        guard let call = closure.parent?.as(FunctionCallExprSyntax.self), call.trailingClosure?.id == closure.id,
            call.calledExpression.trimmedDescription.hasPrefix("Task")
        else { return false }
        return call.parent?.is(CodeBlockItemSyntax.self) ?? false
    }

    static let examples: [CallExample] = [
        CallExample(
            "a statement after the call ran before the handler: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.save("a") { error in
                        if let error {
                            trace.failed(error)
                            return
                        }
                        trace.log("saved")
                    }
                    trace.log("requested")
                }
                """,
            after: .leftAlone(.statementsAfter, "1 statement after it (`trace.log(\"requested\")`…)")),
        CallExample(
            "an early return, with the call last in an `if`: the return still ends the work",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    trace.log("start")
                    if trace.isEnabled {
                        // Save, then say so.
                        api.save("a") { error in
                            if let error {
                                trace.failed(error)
                                return
                            }
                            guard trace.isEnabled else { return }
                            trace.log("saved")
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    trace.log("start")
                    if trace.isEnabled {
                        // Save, then say so.
                        do {
                            try await api.save("a")
                            guard trace.isEnabled else { return }
                            trace.log("saved")
                        } catch {
                            trace.failed(error)
                        }
                    }
                }
                """)),
        CallExample(
            "in a loop: the next iteration ran before the handler",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    for text in ["a", "b"] {
                        api.save(text) { error in
                            trace.log("done \\(error == nil)")
                        }
                    }
                }
                """,
            after: .leftAlone(.statementsAfter, "in a loop")),
    ]
}
