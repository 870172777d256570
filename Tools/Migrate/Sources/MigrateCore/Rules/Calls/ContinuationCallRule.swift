import SwiftSyntax

/// A call whose handler only resumes a continuation the function awaits: `await
/// withCheckedContinuation { continuation in api.f(…) { …; continuation.resume() } }` as a
/// statement of its own, the call the continuation's only statement and `resume()` the
/// handler's last. The function already waited for the handler: it now awaits the call, with
/// the handler's code in the continuation's place.
struct ContinuationCallRule: CallRule {
    static let summary =
        "`await withCheckedContinuation { c in f { …; c.resume() } }` (or the throwing one) awaits the call "
        + "instead; a continuation that returns a value, resumes elsewhere or holds other code is left as it is."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard let closure = rewrite.context?.body.as(ClosureExprSyntax.self),
            let wrapper = ConfirmationTestRule.wrapper(
                closure, names: ["withCheckedContinuation", "withCheckedThrowingContinuation"]),
            wrapper.arguments.allSatisfy({ $0.expression.id == closure.id }),
            ConfirmationTestRule.wrapper(wrapper, names: ["confirmation"]) == nil,
            let names = CallRewrite.parameterNames(of: closure), names.count == 1, let name = names.first,
            closure.statements.count == 1,
            rewrite.call.parent?.as(CodeBlockItemSyntax.self)?.parent?.id == closure.statements.id,
            let statement = ConfirmationTestRule.statement(of: wrapper),
            let handler = rewrite.call.trailingClosure
                ?? rewrite.call.arguments.last?.expression.as(ClosureExprSyntax.self),
            let resume = handler.statements.last, resume.item.trimmedDescription == name + ".resume()",
            ConfirmationTestRule.count(name, in: closure) == 1, !ExpectationTestRule.returns(in: handler)
        else { return .proceed(rewrite) }
        rewrite.confirmation = ConfirmationTest(statement: statement, confirmed: resume)
        rewrite.context = CallContext(of: statement, index: context.index)
        rewrite.notes.append(
            "the call is awaited instead of a continuation: a handler never called, which left the task suspended "
                + "for ever, now fails it with `AbandonedPromiseError`; a second call, which crashed (a continuation "
                + "resumed twice), is ignored; the task's cancellation, which the continuation ignored, throws "
                + "`CancellationError`")
        return .proceed(rewrite)
    }

    static let examples: [CallExample] = [
        CallExample(
            "a continuation resumed by the handler: the call awaited in its place",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    await withCheckedContinuation { continuation in
                        api.save("a") { error in
                            if let error {
                                trace.failed(error)
                            } else {
                                trace.log("saved")
                            }
                            continuation.resume()
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        try await api.save("a")
                        trace.log("saved")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            notes: ["suspended for ever", "resumed twice"]),
        CallExample(
            "a continuation that returns the value: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let count = await withCheckedContinuation { continuation in
                        api.measure("abc") { count in
                            continuation.resume(returning: count)
                        }
                    }
                    trace.log("count \\(count)")
                }
                """,
            after: .leftAlone(.notAsync, "")),
    ]
}
