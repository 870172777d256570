extension CompletionCallRule {
    /// Functions whose handler takes a value and no error.
    static let valueExamples: [CallExample] = [
        CallExample(
            "`(T)`: what the handler is passed is returned",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    measureTwice(api: api, text: "ab") { total in
                        trace.delivered("total \\(total)")
                    }
                }

                func measureTwice(api: FakeAPI, text: String, completion: @escaping @Sendable (Int) -> Void) {
                    api.measure(text) { first in
                        api.measure(text + text) { second in
                            completion(first + second)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    measureTwice(api: api, text: "ab") { total in
                        trace.delivered("total \\(total)")
                    }
                }

                func measureTwice(api: FakeAPI, text: String) async throws -> Int {
                    let first = try await api.measure(text)
                    let second = try await api.measure(text + text)
                    return first + second
                }

                /// Completion-handler form of `measureTwice(api:text:)`, for callers not migrated yet.
                @available(*, renamed: "measureTwice(api:text:)")
                func measureTwice(api: FakeAPI, text: String, completion: @escaping @Sendable (Int) -> Void) {
                    Future<Int> { try await measureTwice(api: api, text: text) }.deliver(on: .inline, to: completion)
                }
                """))
    ]
}
