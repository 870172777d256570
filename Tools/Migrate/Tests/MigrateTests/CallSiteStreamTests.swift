import MigrateCore
import Testing

/// `StreamCallRule` beyond its examples: a stream without a completion, the callback
/// queue, the values that carry errors, a `return` in a loop of the handler, and the
/// handlers passed as labelled arguments.
@Suite("Call sites: multi-shot handlers")
struct CallSiteStreamTests {
    static let api = SourceInput(
        path: "Feed.swift",
        text: """
            import Dispatch
            public final class Token: Sendable { public func cancel() {} }
            public final class Feed: Sendable {
                @discardableResult
                public func observe(key: String, onChange: @escaping @Sendable (String) -> Void) -> Token { Token() }
                @discardableResult
                public func results(
                    query: String, onResult: @escaping @Sendable (Result<Int, any Error>) -> Void,
                    completion: @escaping @Sendable ((any Error)?) -> Void
                ) -> Token { Token() }
                @discardableResult
                public func progress(
                    id: Int, queue: DispatchQueue = .main, onProgress: @escaping @Sendable (Double) -> Void,
                    completion: @escaping @Sendable ((any Error)?) -> Void
                ) -> Token { Token() }
            }
            """)

    static func migrate(_ program: String) -> CallMigrationResult {
        CallMigrator().migrate([SourceInput(path: "Program.swift", text: program)], context: [api])
    }

    @Test("A stream without a completion: the loop, an empty catch, and the note that only cancellation ends it")
    func noCompletion() throws {
        let result = Self.migrate(
            """
            func run(feed: Feed) async {
                feed.observe(key: "a") { value in
                    print(value)
                }
            }
            """)
        #expect(
            result.files.first?.text == """
                func run(feed: Feed) async {
                    do {
                        for try await value in feed.observe(key: "a") {
                            print(value)
                        }
                    } catch {}
                }
                """)
        guard case .converted(let notes) = try #require(result.entries.first).outcome else {
            Issue.record("not converted")
            return
        }
        #expect(
            notes.contains { $0.contains("only the API releasing the handler or the awaiting task's cancellation") })
    }

    @Test("`[weak self]` on a stream with no end is left alone: the loop would keep the object alive")
    func weakSelfWithoutEnd() throws {
        let result = Self.migrate(
            """
            final class Screen: Sendable {
                let feed = Feed()
                func run() async {
                    feed.observe(key: "a") { [weak self] value in
                        guard let self else { return }
                        print(self, value)
                    }
                }
            }
            """)
        #expect(result.files.isEmpty)
        guard case .leftAlone(let reason, let detail) = try #require(result.entries.first).outcome else {
            Issue.record("converted")
            return
        }
        #expect(reason == .captureList)
        #expect(detail.contains("keep the object alive until cancelled"))
    }

    @Test("Values that carry an error are left alone: the stream would end at the first one")
    func resultValues() throws {
        let result = Self.migrate(
            """
            func run(feed: Feed) async {
                feed.results(query: "q") { result in
                    print(result)
                } completion: { error in
                    print(error == nil)
                }
            }
            """)
        #expect(result.files.isEmpty)
        guard case .leftAlone(let reason, let detail) = try #require(result.entries.first).outcome else {
            Issue.record("converted")
            return
        }
        #expect(reason == .multiShot)
        #expect(detail.contains("end the stream at the first error"))
    }

    @Test("A `return` in a loop of the handler is left alone: `continue` would go to that loop")
    func returnInLoop() throws {
        let result = Self.migrate(
            """
            func run(feed: Feed) async {
                feed.observe(key: "a") { value in
                    for character in value {
                        if character == "x" { return }
                    }
                    print(value)
                }
            }
            """)
        #expect(result.files.isEmpty)
        #expect(
            result.entries.first?.outcome
                == .leftAlone(.handlerPattern, "a `return` in a loop of the handler: `continue` would go to that loop"))
    }

    @Test("The main queue by default: left alone off the main actor, converted on it, labelled handlers too")
    func callbackQueue() throws {
        let body = """
            feed.progress(id: 1, onProgress: { fraction in
                    print(fraction)
                }, completion: { error in
                    if let error {
                        print(error)
                    }
                })
            }
            """
        let off = Self.migrate("func run(feed: Feed) async {\n    " + body)
        #expect(off.files.isEmpty)
        guard case .leftAlone(let reason, _) = try #require(off.entries.first).outcome else {
            Issue.record("converted")
            return
        }
        #expect(reason == .callbackQueue)
        let on = Self.migrate("@MainActor\nfunc run(feed: Feed) async {\n    " + body)
        #expect(
            on.files.first?.text == """
                @MainActor
                func run(feed: Feed) async {
                    do {
                        for try await fraction in feed.progress(id: 1) {
                            print(fraction)
                        }
                        try Task.checkCancellation()
                    } catch {
                        print(error)
                    }
                }
                """)
    }
}
