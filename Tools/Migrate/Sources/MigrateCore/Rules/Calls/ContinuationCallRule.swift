import SwiftSyntax

/// A call whose handler only resumes a continuation the function awaits: `await
/// withCheckedContinuation { continuation in api.f(…) { …; continuation.resume() } }` as a
/// statement of its own, the call the continuation's only statement and `resume()` the
/// handler's last. The function already waited for the handler: it now awaits the call, with
/// the handler's code in the continuation's place. A handler that only resumes the continuation
/// with what it receives (``ResumedContinuation``): the call replaces the continuation where it
/// stands (`let v = try await f()`), whatever comes after it.
struct ContinuationCallRule: CallRule {
    static let summary =
        "`await withCheckedContinuation { c in f { …; c.resume() } }` (or the throwing one) awaits the call "
        + "instead; a continuation the handler resumes with what it receives (`c.resume(with: result)`, "
        + "`c.resume(returning: value)`, a `switch` on the result) becomes `try await f()` where it stands; one "
        + "that resumes elsewhere, holds other code, or returns a value where nothing may throw is left alone."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard let closure = rewrite.context?.body.as(ClosureExprSyntax.self),
            let wrapper = ConfirmationTestRule.wrapper(closure, names: ConfirmationTestRule.continuations),
            wrapper.arguments.allSatisfy({ $0.expression.id == closure.id }),
            ConfirmationTestRule.wrapper(wrapper, names: ["confirmation"]) == nil
        else { return .proceed(rewrite) }
        if let names = CallRewrite.parameterNames(of: closure), names.count == 1, let name = names.first,
            closure.statements.count == 1,
            rewrite.call.parent?.as(CodeBlockItemSyntax.self)?.parent?.id == closure.statements.id,
            let statement = ConfirmationTestRule.statement(of: wrapper),
            let handler = rewrite.call.trailingClosure
                ?? rewrite.call.arguments.last?.expression.as(ClosureExprSyntax.self),
            let resume = handler.statements.last, resume.item.trimmedDescription == name + ".resume()",
            ConfirmationTestRule.count(name, in: closure) == 1, !ExpectationTestRule.returns(in: handler)
        {
            rewrite.confirmation = ConfirmationTest(statement: statement, confirmed: resume)
            rewrite.context = CallContext(of: statement, index: context.index)
            rewrite.notes.append(ResumedContinuation.notes(cancelledHandle: nil))
            return .proceed(rewrite)
        }
        // The handler resumes the continuation with what it receives: the call replaces the
        // continuation where it stands (``KeptHandleRule`` settles a handle the call returns).
        switch ResumedContinuation.match(rewrite.call, in: closure, wrapper: wrapper) {
        case .success(let resumed):
            rewrite.resumed = resumed
            rewrite.context = CallContext(of: resumed.expression, index: context.index)
            return .proceed(rewrite)
        case .failure(let refusal):
            return .leave(.continuation, refusal.detail)
        }
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
            "`resume(with: result)`: the call awaited in its place, the code after it kept",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let text = try await withCheckedThrowingContinuation { continuation in
                            api.load(id: 1) { result in
                                continuation.resume(with: result)
                            }
                        }
                        trace.log("got \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let text = try await api.load(id: 1)
                        trace.log("got \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            notes: ["suspended for ever", "resumed twice", "throws `CancellationError`"]),
        CallExample(
            "a `switch` that resumes with each case: the API's own async function",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        // Counted by the API.
                        let count = try await withCheckedThrowingContinuation { continuation in
                            api.count { result in
                                switch result {
                                case .success(let count):
                                    continuation.resume(returning: count)
                                case .failure(let error):
                                    continuation.resume(throwing: error)
                                }
                            }
                        }
                        trace.log("count \\(count)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        // Counted by the API.
                        let count = try await api.count()
                        trace.log("count \\(count)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "a value returned, in a throwing function: `try await` the call",
            before: """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let count = await withCheckedContinuation { continuation in
                        api.measure("abc") { continuation.resume(returning: $0) }
                    }
                    trace.log("count \\(count)")
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let count = try await api.measure("abc")
                    trace.log("count \\(count)")
                }
                """),
            notes: ["`AbandonedPromiseError`"]),
        CallExample(
            "a continuation throwing nothing, in a `do`: its `catch` now receives errors",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let count = await withCheckedContinuation { continuation in
                            api.measure("abc") { continuation.resume(returning: $0) }
                        }
                        try trace.check("\\(count)")
                        trace.log("count \\(count)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let count = try await api.measure("abc")
                        try trace.check("\\(count)")
                        trace.log("count \\(count)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            notes: [
                "`AbandonedPromiseError` and `CancellationError` now reach the `catch` at line 8, which no error of the "
                    + "continuation reached before"
            ]),
        CallExample(
            "a continuation throwing nothing, in a function that throws a typed error: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async throws(FakeError) {
                    let count = await withCheckedContinuation { continuation in
                        api.measure("abc") { continuation.resume(returning: $0) }
                    }
                    trace.log("count \\(count)")
                }
                """,
            after: .leftAlone(.continuation, "may not throw `any Error` (it throws nothing, or a typed error)")),
        CallExample(
            "a `catch` with a pattern before the one for every error: the note says so",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let count = await withCheckedContinuation { continuation in
                            api.measure("abc") { continuation.resume(returning: $0) }
                        }
                        try trace.check("\\(count)")
                        trace.log("count \\(count)")
                    } catch is CancellationError {
                        trace.log("cancelled")
                    } catch {
                        trace.failed(error)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let count = try await api.measure("abc")
                        try trace.check("\\(count)")
                        trace.log("count \\(count)")
                    } catch is CancellationError {
                        trace.log("cancelled")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            notes: ["(one whose pattern matches them first; the one for every error is at line 10)"]),
        CallExample(
            "a continuation that returns a value where nothing may throw: left alone",
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
            after: .leftAlone(.continuation, "does not throw, and the code around it may not")),
        CallExample(
            "a handler that does more than resume the continuation: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let count = await withCheckedContinuation { continuation in
                        api.measure("abc") { count in
                            trace.log("measured")
                            continuation.resume(returning: count)
                        }
                    }
                    trace.log("count \\(count)")
                }
                """,
            after: .leftAlone(.continuation, "the handler does other things than resume `continuation`")),
        CallExample(
            "the `Result` itself returned: not the awaited call's value, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let result = await withCheckedContinuation { continuation in
                        api.load(id: 1) { result in
                            continuation.resume(returning: result)
                        }
                    }
                    trace.log("\\(result)")
                }
                """,
            after: .leftAlone(.continuation, "in a form that is not the awaited call's value and error")),
        CallExample(
            "a continuation's closure that runs more than the call: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let text = try await withCheckedThrowingContinuation { continuation in
                        let task = api.load(id: 1) { result in
                            continuation.resume(with: result)
                        }
                        trace.keepAlive(task)
                    }
                    trace.log(text)
                }
                """,
            after: .leftAlone(.continuation, "runs other code than the call (`trace.keepAlive(task)`)")),
    ]
}
