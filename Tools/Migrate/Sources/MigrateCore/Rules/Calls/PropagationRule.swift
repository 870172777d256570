/// A converted function makes its callers convertible: a function of the module that calls
/// another one of the module (a candidate itself) waits until that one is settled; when it
/// is converted, its call becomes an await like any API's, and when it is left alone, so
/// are its callers (its async form would not exist). Repeated to a fixpoint over the
/// module; the report lists the chains. Calls from synchronous code keep the completion
/// form, which the shim keeps.
struct PropagationRule: DocumentedFunctionRule {
    static let summary =
        "A call of another function of the module waits for that function's decision: converted, it is awaited; "
        + "left alone, its callers are left alone too. Repeated to a fixpoint; the report lists the chains; calls in "
        + "synchronous code keep the completion form (the shim)."

    /// The marker of a decision not made yet: the walk stops, and is made again next round.
    static let waiting = FunctionLeave(reason: .calleeLeftAlone, line: 0, detail: "waiting")

    /// Whether a call of `entry` may be awaited now: nil when it may (converted, or not a
    /// function of the module); ``waiting`` while it is not settled; else why not.
    static func decide(_ entry: AsyncCounterparts.Entry, candidates: Set<String>, settled: [String: Bool])
        -> FunctionLeave?
    {
        guard candidates.contains(entry.displayName), entry.kind != .converted else { return nil }
        guard settled[entry.displayName] != nil else { return waiting }
        return FunctionLeave(
            reason: .calleeLeftAlone, line: 0,
            detail: "`\(entry.displayName)` is left alone, so it has no async version to await")
    }

    static let examples: [CallExample] = [
        CallExample(
            "a pyramid over another pyramid of the module: both converted, the chain awaited",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    measureLoaded(api: api, id: 4) { result in
                        switch result {
                        case .success(let count):
                            trace.log("count \\(count)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }

                func measureLoaded(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
                    loadText(api: api, id: id) { result in
                        switch result {
                        case .success(let text):
                            completion(.success(text.count))
                        case .failure(let error):
                            completion(.failure(error))
                        }
                    }
                }

                func loadText(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    api.load(id: id) { result in
                        completion(result)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let count = try await measureLoaded(api: api, id: 4)
                        trace.log("count \\(count)")
                    } catch {
                        trace.failed(error)
                    }
                }

                func measureLoaded(api: FakeAPI, id: Int) async throws -> Int {
                    let text = try await loadText(api: api, id: id)
                    return text.count
                }

                /// Completion-handler form of `measureLoaded(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "measureLoaded(api:id:)")
                func measureLoaded(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
                    Future<Int> { try await measureLoaded(api: api, id: id) }.deliver(on: .inline, to: completion)
                }

                func loadText(api: FakeAPI, id: Int) async throws -> String {
                    return try await api.load(id: id)
                }

                /// Completion-handler form of `loadText(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "loadText(api:id:)")
                func loadText(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    Future<String> { try await loadText(api: api, id: id) }.deliver(on: .inline, to: completion)
                }
                """)),
        CallExample(
            "a pyramid over a function of the module that is left alone: left alone too",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    saveAll(api: api) { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                func saveAll(api: FakeAPI, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    saveQuietly(api: api) { error in
                        completion(error)
                    }
                }

                func saveQuietly(api: FakeAPI, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    api.save("a") { error in
                        if error != nil { return }
                        completion(nil)
                    }
                }
                """,
            after: .leftAlone(.calleeLeftAlone, "`saveQuietly(api:completion:)` is left alone")),
    ]
}
