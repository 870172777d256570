extension PyramidFunctionRule {
    /// A function whose calls' handlers capture `self` weakly.
    static let captureExamples: [CallExample] = [
        CallExample(
            "`[weak self]` in `self?.` statements: `self.`, the object kept alive, said so",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let store = Store(api: api, trace: trace)
                    trace.keepAlive(store)
                    store.refresh { error in
                        trace.delivered("refreshed \\(error == nil)")
                    }
                }

                final class Store: Sendable {
                    let api: FakeAPI
                    let trace: Trace

                    init(api: FakeAPI, trace: Trace) {
                        self.api = api
                        self.trace = trace
                    }

                    func refresh(completion: @escaping @Sendable ((any Error)?) -> Void) {
                        api.load(id: 4) { [weak self] result in
                            switch result {
                            case .success(let text):
                                self?.trace.log("loaded \\(text)")
                                completion(nil)
                            case .failure(let error):
                                completion(error)
                            }
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    let store = Store(api: api, trace: trace)
                    trace.keepAlive(store)
                    store.refresh { error in
                        trace.delivered("refreshed \\(error == nil)")
                    }
                }

                final class Store: Sendable {
                    let api: FakeAPI
                    let trace: Trace

                    init(api: FakeAPI, trace: Trace) {
                        self.api = api
                        self.trace = trace
                    }

                    func refresh() async throws {
                        let text = try await api.load(id: 4)
                        self.trace.log("loaded \\(text)")
                    }

                    /// Completion-handler form of `refresh()`, for callers not migrated yet.
                    @available(*, renamed: "refresh()")
                    func refresh(completion: @escaping @Sendable ((any Error)?) -> Void) {
                        Future<Void> { try await self.refresh() }.deliver(on: .inline, to: completion)
                    }
                }
                """),
            notes: ["skipped the handler's `self?.` statements"])
    ]
}
