import SwiftSyntax

/// An `(Error?)` handler: `if let error { …; return }` then the success code, or
/// `if let error { … } else { … }`.
struct ErrorOnlyRule: CallRule {
    static let summary =
        "An `(Error?)` handler that tests the error (`if let error { …; return }` then the success code, or "
        + "`if let error { … } else { … }`) becomes `try await …`, the failure code in the `catch`."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard rewrite.branches == nil, let entry = rewrite.entry, case .errorOnly = entry.shape,
            let names = rewrite.parameterNames, names.count == 1, let first = rewrite.body.first
        else { return .proceed(rewrite) }
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
        guard var found = branches, !CallRewrite.uses(error, in: found.success) else { return .proceed(rewrite) }
        if found.errorName == "error" { found.errorName = nil }
        rewrite.branches = found
        return .proceed(rewrite)
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
