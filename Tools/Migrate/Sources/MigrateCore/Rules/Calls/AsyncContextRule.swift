/// Only calls made from async code are rewritten: elsewhere there is nothing to await with.
struct AsyncContextRule: CallRule {
    static let summary =
        "A call is rewritten only in an async context: an async function, accessor or initializer, a `Task { }` or "
        + "`Task.detached { }` body, an async closure. A synchronous function whose last call would be rewritten "
        + "there becomes async, with its callers up to a root (``SyncPropagation``): an async caller or a test "
        + "method awaits it, a synchronous caller of the module becomes async too, other synchronous code starts a "
        + "`Task`; each call must be the last thing its code runs, and the chain is made async whole or not at all. "
        + "A call left in synchronous code is reported with the reason that would leave it alone in async code, "
        + "when one would."

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
            "three synchronous functions under async code: each made async, each call awaited",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    trace.log("start")
                    refreshAll(api: api, trace: trace)
                }

                func refreshAll(api: FakeAPI, trace: Trace) {
                    trace.log("refreshing")
                    reload(api: api, trace: trace)
                }

                func reload(api: FakeAPI, trace: Trace) {
                    trace.log("reloading")
                    loadFirst(api: api, trace: trace)
                }

                func loadFirst(api: FakeAPI, trace: Trace) {
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text):
                            trace.log("loaded \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    trace.log("start")
                    await refreshAll(api: api, trace: trace)
                }

                nonisolated(nonsending) func refreshAll(api: FakeAPI, trace: Trace) async {
                    trace.log("refreshing")
                    await reload(api: api, trace: trace)
                }

                nonisolated(nonsending) func reload(api: FakeAPI, trace: Trace) async {
                    trace.log("reloading")
                    await loadFirst(api: api, trace: trace)
                }

                nonisolated(nonsending) func loadFirst(api: FakeAPI, trace: Trace) async {
                    do {
                        let text = try await api.load(id: 1)
                        trace.log("loaded \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "a caller that goes on after the call: the function stays synchronous",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    reload(api: api, trace: trace)
                    trace.log("requested")
                }

                func reload(api: FakeAPI, trace: Trace) {
                    api.load(id: 3) { result in
                        switch result {
                        case .success(let text):
                            trace.log("loaded \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .leftAlone(.notAsync, "is followed by `trace.log(\"requested\")`")),
        CallExample(
            "synchronous code: the reason is what would leave the call alone in async code",
            before: """
                func run(api: FakeAPI, trace: Trace, queue: DispatchQueue) {
                    api.download(id: 12, callbackQueue: queue) { result in
                        switch result {
                        case .success(let text):
                            trace.log("got \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .leftAlone(.callbackQueue, "the async form has no callback queue (in synchronous code)")),
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
