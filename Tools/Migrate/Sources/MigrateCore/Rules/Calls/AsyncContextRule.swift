/// Only calls made from async code are rewritten: elsewhere there is nothing to await with.
struct AsyncContextRule: CallRule {
    static let summary =
        "A call is rewritten only in an async context: an async function, accessor or initializer, a `Task { }` or "
        + "`Task.detached { }` body, an async closure."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        guard let callContext = rewrite.context, callContext.isAsync else {
            return .leave(.notAsync, "the completion form stays (no await possible here)")
        }
        return .proceed(rewrite)
    }

    static let examples: [CallExample] = [
        CallExample(
            "a call in a synchronous function is left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    api.save("a") { error in
                        if let error {
                            trace.failed(error)
                            return
                        }
                        trace.log("saved")
                    }
                }
                """,
            after: .leftAlone(.notAsync, "no await possible")),
        CallExample(
            "a call in a Task.detached body is rewritten (the task's closure is async)",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    await Task.detached {
                        api.save("a") { error in
                            if let error {
                                trace.failed(error)
                                return
                            }
                            trace.log("saved")
                        }
                    }.value
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    await Task.detached {
                        do {
                            try await api.save("a")
                            trace.log("saved")
                        } catch {
                            trace.failed(error)
                        }
                    }.value
                }
                """)),
    ]
}
