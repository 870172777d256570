/// The before/after examples of ``PyramidFunctionRule`` (the rewritten ones run as trace
/// programs): pyramids converted, and signatures left alone; the handlers that are not
/// `@Sendable` are in `PyramidFunctionRule+IsolationExamples.swift`.
extension PyramidFunctionRule {
    static let examples: [CallExample] = signatureExamples + isolationExamples + captureExamples

    private static let signatureExamples: [CallExample] = [
        CallExample(
            "a pyramid of two calls: two awaits; its async caller awaits it",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    saveLoaded(api: api, id: 1) { result in
                        switch result {
                        case .success(let text):
                            trace.log("saved \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }

                /// Loads a text and saves it.
                func saveLoaded(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    api.load(id: id) { result in
                        switch result {
                        case .success(let text):
                            // Saved as it came.
                            api.save(text) { error in
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
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let text = try await saveLoaded(api: api, id: 1)
                        trace.log("saved \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }

                /// Loads a text and saves it.
                func saveLoaded(api: FakeAPI, id: Int) async throws -> String {
                    let text = try await api.load(id: id)
                    // Saved as it came.
                    try await api.save(text)
                    return text
                }

                /// Completion-handler form of `saveLoaded(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "saveLoaded(api:id:)")
                func saveLoaded(api: FakeAPI, id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    Future<String> { try await saveLoaded(api: api, id: id) }.deliver(on: .inline, to: completion)
                }
                """)),
        CallExample(
            "a method of a class: `self` in the shim, the handler's callout moved to it",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let loader = Loader(api: api)
                    trace.keepAlive(loader)
                    loader.title(of: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                /// Loads titles.
                final class Loader: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    /// The title of `id`, saved.
                    ///
                    /// - Parameter completion: Called once, on the API's queue.
                    func title(
                        of id: Int,
                        completion: @escaping @Sendable (Result<String, any Error>) -> Void
                    ) {
                        // Load first.
                        api.load(id: id) { result in
                            switch result {
                            case .success(let text):
                                guard !text.isEmpty else {
                                    completion(.failure(FakeError()))
                                    return
                                }
                                self.api.save(text) { error in
                                    if let error {
                                        completion(.failure(error))
                                        return
                                    }
                                    completion(.success(text.uppercased()))
                                }
                            case .failure(let error):
                                completion(.failure(error))
                            }
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    let loader = Loader(api: api)
                    trace.keepAlive(loader)
                    loader.title(of: 1) { result in
                        trace.delivered("title \\(result)")
                    }
                }

                /// Loads titles.
                final class Loader: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    /// The title of `id`, saved.
                    func title(of id: Int) async throws -> String {
                        // Load first.
                        let text = try await api.load(id: id)
                        guard !text.isEmpty else {
                            throw FakeError()
                        }
                        try await self.api.save(text)
                        return text.uppercased()
                    }

                    /// Completion-handler form of `title(of:)`, for callers not migrated yet.
                    ///
                    /// - Parameter completion: Called once, on the API's queue.
                    @available(*, renamed: "title(of:)")
                    func title(of id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        Future<String> { try await self.title(of: id) }.deliver(on: .inline, to: completion)
                    }
                }
                """)),
        CallExample(
            "a function that returns its handle: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    _ = start(api: api) { result in
                        trace.delivered("\\(result)")
                    }
                }

                func start(api: FakeAPI, completion: @escaping @Sendable (Result<String, any Error>) -> Void) -> FakeTask {
                    api.load(id: 1) { result in
                        completion(result)
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "returns `FakeTask`")),
        CallExample(
            "a non-final class that is not open and has no subclass here: its method converted",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    Titles(api: api).title { result in
                        switch result {
                        case .success(let title):
                            trace.log("title \\(title)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }

                class Titles: @unchecked Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        api.load(id: 1) { result in
                            completion(result)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let title = try await Titles(api: api).title()
                        trace.log("title \\(title)")
                    } catch {
                        trace.failed(error)
                    }
                }

                class Titles: @unchecked Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func title() async throws -> String {
                        return try await api.load(id: 1)
                    }

                    /// Completion-handler form of `title()`, for callers not migrated yet.
                    @available(*, renamed: "title()")
                    func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        Future<String> { try await self.title() }.deliver(on: .inline, to: completion)
                    }
                }
                """)),
        CallExample(
            "a method of a class a class of the module inherits from: the override would be bypassed, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    Titles(api: api).title { result in
                        trace.delivered("\\(result)")
                    }
                }

                class Titles: @unchecked Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        api.load(id: 1) { result in
                            completion(result)
                        }
                    }
                }

                final class CachedTitles: Titles, @unchecked Sendable {}
                """,
            after: .leftAlone(.functionSignature, "a class of the module inherits from it")),
        CallExample(
            "an override: the superclass's callback method would still be the one awaited, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    Titles(api: api).title { result in
                        trace.delivered("\\(result)")
                    }
                }

                final class Titles: Base, @unchecked Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    override func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        api.load(id: 1) { result in
                            completion(result)
                        }
                    }
                }

                class Base: @unchecked Sendable {
                    func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        completion(.success(""))
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "overrides a superclass method")),
        CallExample(
            "an @objc method: the async version and the shim would share a selector, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    Titles(api: api).title { result in
                        trace.delivered("\\(result)")
                    }
                }

                final class Titles: @unchecked Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    @objc func title(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                        api.load(id: 1) { result in
                            completion(result)
                        }
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "`@objc`")),
        CallExample(
            "a defer ran when the function returned: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    title(api: api, trace: trace) { result in
                        trace.delivered("\\(result)")
                    }
                }

                func title(api: FakeAPI, trace: Trace, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    defer { trace.log("returned") }
                    api.load(id: 1) { result in
                        completion(result)
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "`defer`")),
        CallExample(
            "a value that is not Sendable: the shim's Future could not carry it, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    draft(api: api) { result in
                        trace.delivered("\\(result)")
                    }
                }

                final class Draft {
                    var text = ""
                }

                func draft(api: FakeAPI, completion: @escaping @Sendable (Result<Draft, any Error>) -> Void) {
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text):
                            let draft = Draft()
                            draft.text = text
                            completion(.success(draft))
                        case .failure(let error):
                            completion(.failure(error))
                        }
                    }
                }
                """,
            after: .leftAlone(.functionSignature, "`Draft` is not Sendable")),
    ]
}
