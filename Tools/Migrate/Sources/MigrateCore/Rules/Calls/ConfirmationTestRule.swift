import SwiftSyntax

/// A Swift Testing test that confirms a call's handler: `await confirmation { confirmed in
/// api.f(…) { … confirmed() } }` (or `confirmation("comment", expectedCount: 1)`) as the
/// test's last statement, the call the confirmation's only statement and `confirmed()` the
/// handler's last. `confirmation` returns when its body returns: a handler called later was
/// confirmed 0 times (the test failed) and its assertions ran after the test. The test now
/// awaits the call with the handler's code (its assertions) in the same order, and the
/// confirmation goes.
struct ConfirmationTestRule: CallRule {
    static let summary =
        "A Swift Testing test whose last statement is `await confirmation { confirmed in f { …; confirmed() } }` "
        + "awaits the call instead; an inverted or counted confirmation, `confirmed()` elsewhere than last in the "
        + "handler, a `return` in the handler, other code in the confirmation or after it, or a continuation leave "
        + "it alone."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard let closure = rewrite.context?.body.as(ClosureExprSyntax.self) else { return .proceed(rewrite) }
        let leave = { (detail: String) in CallStep.leave(.expectation, detail) }
        if let wrapper = Self.wrapper(closure, names: Self.continuations),
            Self.wrapper(wrapper, names: ["confirmation"]) != nil || Self.isTest(wrapper)
        {
            return leave(
                "the handler resumes a continuation (`\(wrapper.calledExpression.trimmedDescription)`) in a form "
                    + "`ContinuationCallRule` does not rewrite (in a confirmation, with a value, not last, other code)")
        }
        guard let confirmation = Self.wrapper(closure, names: ["confirmation"]) else { return .proceed(rewrite) }
        let arguments = confirmation.arguments.filter { $0.expression.id != closure.id }
        guard arguments.allSatisfy({ [nil, "expectedCount"].contains($0.label?.text) }) else {
            return leave("the confirmation has arguments this tool does not read")
        }
        if let count = arguments.first(where: { $0.label?.text == "expectedCount" })?.expression.trimmedDescription {
            if count == "0" {
                return leave("the confirmation is inverted: the test checks that the handler is not called")
            }
            if count != "1" {
                return leave("the confirmation expects `\(count)` confirmations: the handler's calls are counted")
            }
        }
        guard let names = CallRewrite.parameterNames(of: closure), names.count == 1, let name = names.first, name != "_"
        else { return leave("the confirmation is not named (`$0` or `_`)") }
        guard closure.statements.count == 1,
            rewrite.call.parent?.as(CodeBlockItemSyntax.self)?.parent?.id == closure.statements.id
        else { return leave("the confirmation's body runs other code than the call") }
        guard let statement = Self.statement(of: confirmation),
            let function = statement.parent?.parent?.as(CodeBlockSyntax.self)?.parent?.as(FunctionDeclSyntax.self),
            function.body?.statements.last?.id == statement.id
        else { return leave("the test does not end with the confirmation (code after it ran before a later handler)") }
        guard
            let handler = rewrite.call.trailingClosure
                ?? rewrite.call.arguments.last?.expression.as(ClosureExprSyntax.self)
        else { return .proceed(rewrite) }
        if Self.count(name, in: closure) > 1 { return leave("`\(name)` is confirmed in more than one place") }
        guard let confirmed = handler.statements.last, Self.confirms(confirmed, name: name) else {
            return leave("`\(name)()` is not the handler's last statement")
        }
        if ExpectationTestRule.returns(in: handler) {
            return leave("a `return` in the handler skipped `\(name)()`: the confirmation failed")
        }
        rewrite.confirmation = ConfirmationTest(statement: statement, confirmed: confirmed)
        rewrite.context = CallContext(of: statement, index: context.index)
        rewrite.notes.append(
            "the test awaits the call: before, `confirmation` returned when its body did, so a handler called later was "
                + "confirmed 0 times (the test failed) and its assertions ran after the test; now they run in the test, "
                + "and a handler never called fails it with `AbandonedPromiseError` (a cancelled test: `CancellationError`)"
        )
        return .proceed(rewrite)
    }

    static let continuations = [
        "withCheckedContinuation", "withCheckedThrowingContinuation", "withUnsafeContinuation",
        "withUnsafeThrowingContinuation",
    ]

    /// The call `closure` is the trailing closure (or last argument) of, when its callee is one of `names`.
    static func wrapper(_ closure: ClosureExprSyntax, names: [String]) -> FunctionCallExprSyntax? {
        var parent = closure.parent
        if parent?.is(LabeledExprSyntax.self) ?? false { parent = parent?.parent?.parent }
        guard let call = parent?.as(FunctionCallExprSyntax.self) else { return nil }
        let callee = call.calledExpression.trimmedDescription
        return names.contains(where: { callee == $0 || callee == "Testing." + $0 }) ? call : nil
    }

    /// The closure's call, if it is itself in the body of `wrapper`'s closure.
    static func wrapper(_ call: FunctionCallExprSyntax, names: [String]) -> FunctionCallExprSyntax? {
        var node = call.parent
        while let current = node, !current.is(ClosureExprSyntax.self) { node = current.parent }
        return node?.as(ClosureExprSyntax.self).flatMap { wrapper($0, names: names) }
    }

    /// Whether the function around `call` is marked `@Test`.
    private static func isTest(_ call: FunctionCallExprSyntax) -> Bool {
        var node = call.parent
        while let current = node, !current.is(FunctionDeclSyntax.self) { node = current.parent }
        return node?.as(FunctionDeclSyntax.self)?.attributes.contains {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Test"
        } ?? false
    }

    /// `await confirmation { … }` (or `try await`) as a statement of its own.
    static func statement(of call: FunctionCallExprSyntax) -> CodeBlockItemSyntax? {
        var node = Syntax(call).parent
        while let current = node, current.is(AwaitExprSyntax.self) || current.is(TryExprSyntax.self) {
            node = current.parent
        }
        guard let item = node?.as(CodeBlockItemSyntax.self), call.parent?.is(AwaitExprSyntax.self) ?? false else {
            return nil
        }
        return item
    }

    /// `name()`, `name(count: 1)`, `name.confirm()`, `name.confirm(count: 1)`.
    static func confirms(_ item: CodeBlockItemSyntax, name: String) -> Bool {
        let text = item.item.trimmedDescription
        return [name, name + ".confirm"].contains { text == $0 + "()" || text == $0 + "(count: 1)" }
    }

    /// The uses of `name` in the closure.
    static func count(_ name: String, in closure: ClosureExprSyntax) -> Int {
        closure.statements.tokens(viewMode: .sourceAccurate).filter {
            $0.tokenKind == .identifier(name) && $0.previousToken(viewMode: .sourceAccurate)?.tokenKind != .period
        }.count
    }

    static let examples: [CallExample] = ConfirmationTestRule.rewrittenExamples + ConfirmationTestRule.leftExamples
}

/// A Swift Testing confirmation around a call: the lines that go once the call is awaited.
struct ConfirmationTest {
    /// `await confirmation { … }`, the test's last statement: the call's code takes its place.
    var statement: CodeBlockItemSyntax
    /// `confirmed()`, the handler's last statement.
    var confirmed: CodeBlockItemSyntax
}
