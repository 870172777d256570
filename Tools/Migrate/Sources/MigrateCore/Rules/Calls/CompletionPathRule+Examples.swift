extension CompletionPathRule {
    static let examples: [CallExample] = pathExamples + catchExamples + passedOnExamples

    private static let pathExamples: [CallExample] = [
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
            "a `return` after a call of the completion in an `if` only: the other path never calls it, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    loadLong(api: api) { result in
                        trace.delivered("loaded \\(result)")
                    }
                }

                func loadLong(api: FakeAPI, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text):
                            if text.count > 1 {
                                completion(.success(text.count))
                            }
                            return
                        case .failure(let error):
                            completion(.failure(error))
                        }
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
        CallExample(
            "`guard let value else { return }` in the handler: a path that never calls the completion, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    describeQuietly(api: api, id: 1) { text, error in
                        trace.delivered("described \\(text ?? "-") \\(error == nil)")
                    }
                }

                func describeQuietly(api: FakeAPI, id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
                    api.fetch(id: id) { text, error in
                        if let error {
                            completion(nil, error)
                            return
                        }
                        guard let text else { return }
                        completion(text, nil)
                    }
                }
                """,
            after: .leftAlone(.completionNeverCalled, "`return` before calling `completion`")),
        CallExample(
            "`if let error { …; return }` that drops the error: a path that never calls the completion, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    storeQuietly(api: api, trace: trace, text: "a") { error in
                        trace.delivered("stored \\(error == nil)")
                    }
                }

                func storeQuietly(api: FakeAPI, trace: Trace, text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    api.save(text) { error in
                        if let error {
                            trace.failed(error)
                            return
                        }
                        completion(nil)
                    }
                }
                """,
            after: .leftAlone(.completionNeverCalled, "`return` before calling `completion`")),
        CallExample(
            "a `guard … else { completion(…); return }` does not call it on the path past it: a later `return`, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    describeOrSkip(api: api, id: 1) { text, error in
                        trace.delivered("described \\(text ?? "-") \\(error == nil)")
                    }
                }

                func describeOrSkip(api: FakeAPI, id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
                    api.fetch(id: id) { text, error in
                        if let error {
                            completion(nil, error)
                            return
                        }
                        guard let text else {
                            completion(nil, FakeError())
                            return
                        }
                        trace.log("got \\(text), not reported")
                        return
                    }
                }
                """,
            after: .leftAlone(.completionNeverCalled, "`return` before calling `completion`")),
        CallExample(
            "`[weak self]` with `guard let self else { return }`: a released object never called the completion, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let titles = Titles(api: api)
                    trace.keepAlive(titles)
                    titles.title { result in
                        trace.delivered("title \\(result)")
                    }
                }

                final class Titles: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        api.load(id: 1) { [weak self] result in
                            guard let self else { return }
                            switch result {
                            case .success(let text):
                                self.api.save(text) { error in
                                    if let error {
                                        completion(.failure(error))
                                        return
                                    }
                                    completion(.success(text))
                                }
                            case .failure(let error):
                                completion(.failure(error))
                            }
                        }
                    }
                }
                """,
            after: .leftAlone(.completionNeverCalled, "`return` before calling `completion`")),
        CallExample(
            "`completion(nil, nil)`: the async version cannot return neither a value nor an error, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    describeOrNothing(api: api, id: 1) { text, error in
                        trace.delivered("described \\(text ?? "-") \\(error == nil)")
                    }
                }

                func describeOrNothing(api: FakeAPI, id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
                    api.fetch(id: id) { text, error in
                        if let error {
                            completion(nil, error)
                            return
                        }
                        guard let text else {
                            completion(nil, nil)
                            return
                        }
                        completion(text, nil)
                    }
                }
                """,
            after: .leftAlone(.completionNeither, "`completion(nil, nil)`")),
        CallExample(
            "a `(T?, Error?)` handler passed on: converted, with a note on `(nil, nil)`",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    describePassed(api: api, id: 1) { text, error in
                        trace.delivered("described \\(text ?? "-") \\(error == nil)")
                    }
                }

                func describePassed(api: FakeAPI, id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
                    api.fetch(id: id) { text, error in
                        completion(text, error)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    describePassed(api: api, id: 1) { text, error in
                        trace.delivered("described \\(text ?? "-") \\(error == nil)")
                    }
                }

                func describePassed(api: FakeAPI, id: Int) async throws -> String {
                    return try await api.fetch(id: id)
                }

                /// Completion-handler form of `describePassed(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "describePassed(api:id:)")
                func describePassed(api: FakeAPI, id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
                    Future<String> { try await describePassed(api: api, id: id) }.deliver(on: .inline, to: completion)
                }
                """),
            notes: ["`(nil, nil)`"]),
        CallExample(
            "`api.save(…)` in `Saver.save`: the receiver's type says it is the API's",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let saver = Saver(api: api)
                    trace.keepAlive(saver)
                    saver.save("a") { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                final class Saver: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func save(_ text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
                        api.save(text) { error in
                            completion(error)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    let saver = Saver(api: api)
                    trace.keepAlive(saver)
                    saver.save("a") { error in
                        trace.delivered("saved \\(error == nil)")
                    }
                }

                final class Saver: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func save(_ text: String) async throws {
                        try await api.save(text)
                    }

                    /// Completion-handler form of `save(_:)`, for callers not migrated yet.
                    @available(*, renamed: "save(_:)")
                    func save(_ text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
                        Future<Void> { try await self.save(text) }.deliver(on: .inline, to: completion)
                    }
                }
                """)),
    ]
}
