extension CompletionPathRule {
    static let examples: [CallExample] = [
        CallExample(
            "failure code that does more than pass the error on: a do/catch around the await",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    report(api: api, trace: trace) { result in
                        trace.delivered("reported \\(result)")
                    }
                }

                func report(api: FakeAPI, trace: Trace, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
                    trace.log("reporting")
                    api.load(id: 3) { result in
                        switch result {
                        case .success(let text):
                            completion(.success(text.count))
                        case .failure(let error):
                            trace.failed(error)
                            completion(.failure(error))
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    report(api: api, trace: trace) { result in
                        trace.delivered("reported \\(result)")
                    }
                }

                func report(api: FakeAPI, trace: Trace) async throws -> Int {
                    trace.log("reporting")
                    do {
                        let text = try await api.load(id: 3)
                        return text.count
                    } catch {
                        trace.failed(error)
                        throw error
                    }
                }

                /// Completion-handler form of `report(api:trace:)`, for callers not migrated yet.
                @available(*, renamed: "report(api:trace:)")
                func report(api: FakeAPI, trace: Trace, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
                    Future<Int> { try await report(api: api, trace: trace) }.deliver(on: .inline, to: completion)
                }
                """)),
        CallExample(
            "a path that never calls the completion: left alone, with its line",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    quietSave(api: api, text: "a") { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                func quietSave(api: FakeAPI, text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    guard !text.isEmpty else { return }
                    api.save(text) { error in
                        completion(error)
                    }
                }
                """,
            after: .leftAlone(.completionNeverCalled, "`return` before calling `completion`")),
        CallExample(
            "a path that calls the completion twice: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    saveTwice(api: api, trace: trace) { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                func saveTwice(api: FakeAPI, trace: Trace, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    if trace.isEnabled {
                        completion(nil)
                    }
                    api.save("a") { error in
                        completion(error)
                    }
                }
                """,
            after: .leftAlone(.completionTwice, "add `return` to convert")),
        CallExample(
            "code after the completion: the async version would skip it, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    saveAndLog(api: api, trace: trace) { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                func saveAndLog(api: FakeAPI, trace: Trace, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    api.save("a") { error in
                        completion(error)
                        trace.log("after the completion")
                    }
                }
                """,
            after: .leftAlone(.completionReordered, "ran after the completion")),
    ]
}
