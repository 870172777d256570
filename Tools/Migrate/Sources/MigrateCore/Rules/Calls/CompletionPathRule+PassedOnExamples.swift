extension CompletionPathRule {
    /// Functions that pass their completion on, by name, to the call they end with.
    static let passedOnExamples: [CallExample] = [
        CallExample(
            "the completion passed on by name: the call's value returned",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let loader = Loader(api: api)
                    trace.keepAlive(loader)
                    loader.text(id: 3) { result in
                        trace.delivered("text \\(result)")
                    }
                }

                final class Loader: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func text(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        api.load(id: id, completion: completion)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    let loader = Loader(api: api)
                    trace.keepAlive(loader)
                    loader.text(id: 3) { result in
                        trace.delivered("text \\(result)")
                    }
                }

                final class Loader: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func text(id: Int) async throws -> String {
                        return try await api.load(id: id)
                    }

                    /// Completion-handler form of `text(id:)`, for callers not migrated yet.
                    @available(*, renamed: "text(id:)")
                    func text(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        Future<String> { try await self.text(id: id) }.deliver(on: .inline, to: completion)
                    }
                }
                """)),
        CallExample(
            "the completion passed on after other code: that code stays before the await",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    saveTrimmed(api: api, text: " a ") { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                func saveTrimmed(api: FakeAPI, text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    api.save(trimmed, completion: completion)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    saveTrimmed(api: api, text: " a ") { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                func saveTrimmed(api: FakeAPI, text: String) async throws {
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    try await api.save(trimmed)
                }

                /// Completion-handler form of `saveTrimmed(api:text:)`, for callers not migrated yet.
                @available(*, renamed: "saveTrimmed(api:text:)")
                func saveTrimmed(api: FakeAPI, text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    Future<Void> { try await saveTrimmed(api: api, text: text) }.deliver(on: .inline, to: completion)
                }
                """)),
    ]
}
