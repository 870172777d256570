import SwiftSyntax

/// An `(Error?)` handler: `if let error { …; return }` then the success code, or
/// `if let error { … } else { … }`.
struct ErrorOnlyRule: CallRule {
    static let summary =
        "An `(Error?)` handler that tests the error (`if let error { …; return }` then the success code, "
        + "`if let error { … } else { … }`, or a test's `XCTAssertNil(error)` first) becomes `try await …`, the "
        + "failure code (the assertion) in the `catch`; one that ignores it (`_ in`) becomes `try? await …` with "
        + "its code after it."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard rewrite.branches == nil, let entry = rewrite.entry, case .errorOnly = entry.shape,
            let names = rewrite.parameterNames, names.count == 1
        else { return .proceed(rewrite) }
        guard let first = rewrite.body.first else { return .proceed(rewrite) }
        let error = names[0]
        var branches: HandlerBranches?
        if let (errorName, failure) = Self.errorFirst(first, error: error) {
            branches = HandlerBranches(
                valueName: nil, success: Array(rewrite.body.dropFirst()), errorName: errorName, failure: failure)
        } else if rewrite.body.count == 1, let ifExpr = Self.ifExpr(first),
            let errorName = CallRewrite.optionalBinding(ifExpr.conditions, of: error),
            case .codeBlock(let elseBlock) = ifExpr.elseBody
        {
            branches = HandlerBranches(
                valueName: nil, success: Array(elseBlock.statements), errorName: errorName,
                failure: Array(ifExpr.body.statements))
        }
        if branches == nil, !CallRewrite.uses(error, in: rewrite.body), let statement = rewrite.statement,
            let scope = statement.parent?.as(CodeBlockItemListSyntax.self)
        {
            // The handler ignores the error (`_ in`): its code runs whatever the outcome, after
            // `try? await` at the call's own level (unless a name it declares is declared there too).
            let others = scope.filter { $0.id != statement.id }
            guard Set(CallRewrite.declared(in: rewrite.body)).isDisjoint(with: CallRewrite.declared(in: Array(others)))
            else { return .leave(.handlerPattern, "the handler's code declares a name its caller declares too") }
            rewrite.branches = HandlerBranches(
                valueName: nil, success: rewrite.body, errorName: nil, failure: [], ignoresError: true)
            rewrite.notes.append(
                "the error is ignored, as the handler ignored it: the code after the call runs either way")
            return .proceed(rewrite)
        }
        if branches == nil, Self.assertsNoError(first, error: error) {
            // A test's `XCTAssertNil(error)`: in the `catch`, where it fails as it did.
            branches = HandlerBranches(
                valueName: nil, success: Array(rewrite.body.dropFirst()), errorName: error, failure: [first])
        }
        guard var found = branches, !CallRewrite.uses(error, in: found.success) else { return .proceed(rewrite) }
        if found.errorName == "error" { found.errorName = nil }
        rewrite.branches = found
        return .proceed(rewrite)
    }

    /// `XCTAssertNil(error)` or `XCTAssertNil(error, message)`, as a statement.
    static func assertsNoError(_ item: CodeBlockItemSyntax, error: String) -> Bool {
        let call =
            item.item.as(FunctionCallExprSyntax.self)
            ?? item.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self)
        guard let call, call.calledExpression.trimmedDescription == "XCTAssertNil",
            call.trailingClosure == nil, let first = call.arguments.first, first.label == nil,
            first.expression.trimmedDescription == error
        else { return false }
        return !CallRewrite.uses(error, in: Array(call.arguments.dropFirst()))
    }

    static func ifExpr(_ item: CodeBlockItemSyntax) -> IfExprSyntax? {
        item.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self) ?? item.item.as(IfExprSyntax.self)
    }

    /// `if let e = error { F; return }` with no `else`: the bound name and F (without the `return`).
    static func errorFirst(_ item: CodeBlockItemSyntax, error: String) -> (String, [CodeBlockItemSyntax])? {
        guard let ifExpr = ifExpr(item), ifExpr.elseBody == nil,
            let bound = CallRewrite.optionalBinding(ifExpr.conditions, of: error)
        else { return nil }
        let statements = Array(ifExpr.body.statements)
        guard CallRewrite.endsWithReturn(statements) else { return nil }
        return (bound, Array(statements.dropLast()))
    }

    static let examples: [CallExample] = [
        CallExample(
            "if let error, return; then the success code",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.save("b") { error in
                        if let error {
                            trace.failed(error)
                            return
                        }
                        trace.log("saved")
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        try await api.save("b")
                        trace.log("saved")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "if let error, else",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.save("c") { error in
                        if let error {
                            trace.failed(error)
                        } else {
                            trace.log("saved")
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        try await api.save("c")
                        trace.log("saved")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "the error ignored (`_ in`): `try? await`, the code after it runs either way",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.save("e") { _ in
                        trace.log("saved or not")
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    try? await api.save("e")
                    trace.log("saved or not")
                }
                """),
            notes: ["the error is ignored"]),
        CallExample(
            "code outside the test runs on both paths: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.save("d") { error in
                        trace.log("finished")
                        if let error {
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .leftAlone(.handlerPattern, "")),
    ]
}
