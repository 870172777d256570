extension CompletionPathRule {
    /// Functions with a `do`/`catch` before the call they await.
    static let catchExamples: [CallExample] = [
        CallExample(
            "a `catch` that calls the completion and returns: it throws; the `do` stays",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    saveEncoded(api: api, values: [1, 2]) { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                func saveEncoded(api: FakeAPI, values: [Int], completion: @escaping @Sendable ((any Error)?) -> Void) {
                    let text: String
                    do {
                        text = String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
                    } catch {
                        completion(error)
                        return
                    }
                    api.save(text) { error in
                        completion(error)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    saveEncoded(api: api, values: [1, 2]) { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                func saveEncoded(api: FakeAPI, values: [Int]) async throws {
                    let text: String
                    do {
                        text = String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
                    } catch {
                        throw error
                    }
                    try await api.save(text)
                }

                /// Completion-handler form of `saveEncoded(api:values:)`, for callers not migrated yet.
                @available(*, renamed: "saveEncoded(api:values:)")
                func saveEncoded(api: FakeAPI, values: [Int], completion: @escaping @Sendable ((any Error)?) -> Void) {
                    Future<Void> { try await saveEncoded(api: api, values: values) }.deliver(on: .inline, to: completion)
                }
                """)),
        CallExample(
            "a `return` in the `do`: a path that never calls the completion, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    saveEncoded(api: api, values: [1, 2]) { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                func saveEncoded(api: FakeAPI, values: [Int], completion: @escaping @Sendable ((any Error)?) -> Void) {
                    var text = ""
                    do {
                        guard !values.isEmpty else { return }
                        text = String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
                    } catch {
                        completion(error)
                        return
                    }
                    api.save(text) { error in
                        completion(error)
                    }
                }
                """,
            after: .leftAlone(.completionNeverCalled, "`return` before calling `completion`")),
    ]
}
