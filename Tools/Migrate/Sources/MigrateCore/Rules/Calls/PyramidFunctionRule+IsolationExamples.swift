import Foundation

/// The examples of ``PyramidFunctionRule`` whose handler is not `@Sendable`: the shim calls it
/// from a task in the function's isolation, or the function is left alone.
extension PyramidFunctionRule {
    static let isolationExamples: [CallExample] = [
        CallExample(
            "@MainActor method, handler not @Sendable: called from a task on the main actor",
            before: """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    let titles = Titles(api: api)
                    titles.title(of: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                /// Shows titles.
                @MainActor final class Titles {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    /// The title of `id`.
                    ///
                    /// - Parameter completion: Called once, on the main actor.
                    func title(of id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                        api.show(id: id) { result in
                            switch result {
                            case .success(let text):
                                completion(.success(text.uppercased()))
                            case .failure(let error):
                                completion(.failure(error))
                            }
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    let titles = Titles(api: api)
                    titles.title(of: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                /// Shows titles.
                @MainActor final class Titles {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    /// The title of `id`.
                    func title(of id: Int) async throws -> String {
                        let text = try await api.show(id: id)
                        return text.uppercased()
                    }

                    /// Completion-handler form of `title(of:)`, for callers not migrated yet.
                    ///
                    /// - Parameter completion: Called once, on the main actor.
                    @available(*, renamed: "title(of:)")
                    func title(of id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                        Task {
                            do {
                                let value = try await self.title(of: id)
                                completion(.success(value))
                            } catch {
                                completion(.failure(error))
                            }
                        }
                    }
                }
                """),
            notes: ["a task isolated to `@MainActor`"]),
        CallExample(
            "@MainActor function, `(T?, Error?)` handler not @Sendable: a main-actor task",
            before: """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    showTitle(api: api, id: 1) { text, error in
                        trace.delivered("title \\(String(describing: text)) \\(String(describing: error))")
                    }
                }

                @MainActor func showTitle(api: FakeAPI, id: Int, completion: @escaping (String?, (any Error)?) -> Void) {
                    api.show(id: id) { result in
                        switch result {
                        case .success(let text):
                            completion(text, nil)
                        case .failure(let error):
                            completion(nil, error)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    showTitle(api: api, id: 1) { text, error in
                        trace.delivered("title \\(String(describing: text)) \\(String(describing: error))")
                    }
                }

                @MainActor
                func showTitle(api: FakeAPI, id: Int) async throws -> String {
                    let text = try await api.show(id: id)
                    return text
                }

                /// Completion-handler form of `showTitle(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "showTitle(api:id:)")
                @MainActor
                func showTitle(api: FakeAPI, id: Int, completion: @escaping (String?, (any Error)?) -> Void) {
                    Task {
                        do {
                            let value = try await showTitle(api: api, id: id)
                            completion(value, nil)
                        } catch {
                            completion(nil, error)
                        }
                    }
                }
                """)),
        CallExample(
            "@MainActor function, `(Error?)` handler not @Sendable: a main-actor task",
            before: """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    touch(api: api, id: 1) { error in
                        trace.delivered("touched \\(String(describing: error))")
                    }
                }

                @MainActor func touch(api: FakeAPI, id: Int, completion: @escaping ((any Error)?) -> Void) {
                    api.show(id: id) { result in
                        switch result {
                        case .success:
                            completion(nil)
                        case .failure(let error):
                            completion(error)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                @MainActor func run(api: FakeAPI, trace: Trace) {
                    touch(api: api, id: 1) { error in
                        trace.delivered("touched \\(String(describing: error))")
                    }
                }

                @MainActor
                func touch(api: FakeAPI, id: Int) async throws {
                    _ = try await api.show(id: id)
                }

                /// Completion-handler form of `touch(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "touch(api:id:)")
                @MainActor
                func touch(api: FakeAPI, id: Int, completion: @escaping ((any Error)?) -> Void) {
                    Task {
                        do {
                            try await touch(api: api, id: id)
                            completion(nil)
                        } catch {
                            completion(error)
                        }
                    }
                }
                """)),
        CallExample(
            "an actor's method whose handler, not @Sendable, ran on the main queue: the shim's task would not, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    await Titles(api: api).title { result in
                        trace.delivered("\\(result)")
                    }
                }

                actor Titles {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func title(completion: @escaping (Result<String, any Error>) -> Void) {
                        api.show(id: 1) { result in
                            completion(result)
                        }
                    }
                }
                """,
            after: .leftAlone(.completionEscapes, "the shim's task runs on the actor `Titles`")),
        CallExample(
            "an actor's method, handler not @Sendable: a task on the actor",
            before: store(
                """

                func title(id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                    api.lookup(id: id) { result in
                        switch result {
                        case .success(let text):
                            completion(.success(text.uppercased()))
                        case .failure(let error):
                            completion(.failure(error))
                        }
                    }
                }
                """),
            after: .rewritten(
                store(
                    """

                    func title(id: Int) async throws -> String {
                        let text = try await api.lookup(id: id)
                        return text.uppercased()
                    }

                    /// Completion-handler form of `title(id:)`, for callers not migrated yet.
                    @available(*, renamed: "title(id:)")
                    func title(id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                        Task {
                            do {
                                let value = try await self.title(id: id)
                                completion(.success(value))
                            } catch {
                                completion(.failure(error))
                            }
                        }
                    }
                    """)),
            notes: ["a task isolated to the actor `Store`"]),
        CallExample(
            "a handler that is not @Sendable, in a function with no actor: left alone",
            before: unannotatedTitle,
            after: .leftAlone(.functionSignature, "not isolated to an actor")),
        CallExample(
            "default isolation MainActor, handler not @Sendable: a main-actor task",
            before: unannotatedTitle,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    title(api: api) { result in
                        trace.delivered("\\(result)")
                    }
                }

                func title(api: FakeAPI) async throws -> String {
                    return try await api.show(id: 1)
                }

                /// Completion-handler form of `title(api:)`, for callers not migrated yet.
                @available(*, renamed: "title(api:)")
                func title(api: FakeAPI, completion: @escaping (Result<String, any Error>) -> Void) {
                    Task {
                        do {
                            let value = try await title(api: api)
                            completion(.success(value))
                        } catch {
                            completion(.failure(error))
                        }
                    }
                }
                """),
            notes: ["a task isolated to `@MainActor`"], options: .mainActorDefault),
        CallExample(
            "default isolation MainActor, a `nonisolated` function, handler not @Sendable: left alone",
            before: unannotatedTitle.replacingOccurrences(of: "func title(", with: "nonisolated func title("),
            after: .leftAlone(.functionSignature, "not isolated to an actor"), options: .mainActorDefault),
        CallExample(
            "a handler that is not @Sendable, called from `queue.async` in a function with no actor: left alone, said so",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    title(api: api, callbackQueue: .main) { result in
                        trace.delivered("\\(result)")
                    }
                }

                func title(
                    api: FakeAPI, callbackQueue: DispatchQueue, completion: @escaping (Result<String, any Error>) -> Void
                ) {
                    api.load(id: 1) { result in
                        callbackQueue.async {
                            completion(result)
                        }
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "the body already hands it to `callbackQueue.async`")),
    ]

    /// A plain actor whose `show(trace:)` calls `title(id:completion:)`, and the members
    /// `title` declares (written without indentation, after a blank line).
    private static func store(_ title: String) -> String {
        """
        func run(api: FakeAPI, trace: Trace) async {
            await Store(api: api).show(trace: trace)
        }

        actor Store {
            let api: FakeAPI

            init(api: FakeAPI) {
                self.api = api
            }

            func show(trace: Trace) {
                title(id: 1) { result in
                    trace.delivered("\\(result)")
                }
            }

        """
            + title.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }
            .joined(separator: "\n") + "\n}"
    }

    /// A function with no isolation attribute whose handler is not `@Sendable`, and its caller:
    /// "no actor" in a nonisolated module, the main actor where that is the default.
    private static let unannotatedTitle = """
        func run(api: FakeAPI, trace: Trace) {
            title(api: api) { result in
                trace.delivered("\\(result)")
            }
        }

        func title(api: FakeAPI, completion: @escaping (Result<String, any Error>) -> Void) {
            api.show(id: 1) { result in
                completion(result)
            }
        }
        """
}
