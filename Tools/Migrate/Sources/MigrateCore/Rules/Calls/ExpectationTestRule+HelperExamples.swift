/// The examples of ``ExpectationTestRule`` whose wait is in a helper the tests call (``WaitingHelper``):
/// converted with its callers, or left alone with them.
extension ExpectationTestRule {
    static let helperExamples: [CallExample] = [
        CallExample(
            "a helper returning what the handler set after the wait: async with its test",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    XCTAssertEqual(loaded(api: api, trace: trace), "v")
                }

                \(waitingHelper)
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let loadedResult = try await loaded(api: api, trace: trace)
                    XCTAssertEqual(loadedResult, "v")
                }

                \(awaitingHelper)
                """),
            notes: ["`loaded` waited for this call: it is now `async throws`, and its call awaits it (in `run`, made"]),
        CallExample(
            "a helper's value after the wait, kept by the test in a `let`: awaited there",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let text = loaded(api: api, trace: trace)
                    XCTAssertEqual(text, "v")
                }

                \(waitingHelper)
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let text = try await loaded(api: api, trace: trace)
                    XCTAssertEqual(text, "v")
                }

                \(awaitingHelper)
                """)),
        CallExample(
            "a helper that waits, called in a closure: left alone with its callers",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let texts = [1].map { _ in loaded(api: api, trace: trace) }
                    XCTAssertEqual(texts, ["v"])
                }

                \(waitingHelper)
                """,
            after: .leftAlone(.expectation, "`await` cannot go there")),
        CallExample(
            "a helper that waits, in an assertion after an argument that reads a value: hoisted, the order would change",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let received = Received(trace: trace)
                    XCTAssertEqual(received.value, loaded(api: api, trace: trace))
                }

                \(waitingHelper)
                """,
            after: .leftAlone(.expectation, "hoisted, it would run in another order")),
        CallExample(
            "a helper that waits, called by a function that other code calls: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    check(api: api, trace: trace)
                }

                func check(api: FakeAPI, trace: Trace) {
                    XCTAssertEqual(loaded(api: api, trace: trace), "v")
                }

                \(waitingHelper)
                """,
            after: .leftAlone(.expectation, "`check`, which other code calls")),
    ]

    /// A helper that waits for `load` and returns what its handler set (the examples' tests call it).
    private static let waitingHelper = """
        func loaded(api: FakeAPI, trace: Trace) -> String? {
            let done = expectation(description: "load")
            let received = Received(trace: trace)
            api.load(id: 1) { result in
                switch result {
                case .success(let user):
                    received.value = user
                case .failure(let error):
                    received.value = "failed \\(type(of: error))"
                }
                done.fulfill()
            }
            wait(for: [done], timeout: 1)
            return received.value
        }
        """

    /// ``waitingHelper`` converted.
    private static let awaitingHelper = """
        func loaded(api: FakeAPI, trace: Trace) async throws -> String? {
            let received = Received(trace: trace)
            do {
                let user = try await api.load(id: 1)
                received.value = user
            } catch {
                received.value = "failed \\(type(of: error))"
            }
            return received.value
        }
        """
}
