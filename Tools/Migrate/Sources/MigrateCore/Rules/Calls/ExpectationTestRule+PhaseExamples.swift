/// The examples of ``ExpectationTestRule`` for code after the wait: a test that goes on
/// after the handler, in phases with an expectation each.
extension ExpectationTestRule {
    static let phaseExamples: [CallExample] = [
        CallExample(
            "code after the wait ran after the handler, and follows the awaited call",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    let received = Received(trace: trace)
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let user): received.value = user
                        case .failure(let error): received.value = "failed \\(type(of: error))"
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                    let shown = received.value ?? "nothing"
                    received.value = "shown " + shown
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let received = Received(trace: trace)
                    do {
                        let user = try await api.load(id: 1)
                        received.value = user
                    } catch {
                        received.value = "failed \\(type(of: error))"
                    }
                    let shown = received.value ?? "nothing"
                    received.value = "shown " + shown
                }
                """)),
        CallExample(
            "a failure that only fails the test, code after the wait: the `catch` stays",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    let received = Received(trace: trace)
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text): received.value = text
                        case .failure(let error): XCTFail("\\(error)")
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                    trace.log("cleaned up")
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let received = Received(trace: trace)
                    do {
                        let text = try await api.load(id: 1)
                        received.value = text
                    } catch {
                        XCTFail("\\(error)")
                    }
                    trace.log("cleaned up")
                }
                """)),
        CallExample(
            "a test in two phases, an expectation each: both awaited, in order",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let loaded = expectation(description: "load")
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text): trace.log("loaded \\(text)")
                        case .failure(let error): trace.failed(error)
                        }
                        loaded.fulfill()
                    }
                    wait(for: [loaded], timeout: 1)
                    trace.log("between")
                    let counted = expectation(description: "count")
                    api.count { result in
                        switch result {
                        case .success(let count): trace.log("counted \\(count)")
                        case .failure(let error): trace.failed(error)
                        }
                        counted.fulfill()
                    }
                    wait(for: [counted], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    do {
                        let text = try await api.load(id: 1)
                        trace.log("loaded \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                    trace.log("between")
                    do {
                        let count = try await api.count()
                        trace.log("counted \\(count)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "two phases keep whole results, both named `result`: the second in a `do { }`",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let first = expectation(description: "first")
                    api.load(id: 1) { (result: Result<String, any Error>) in
                        trace.log("first \\((try? result.get()) ?? "failed")")
                        first.fulfill()
                    }
                    wait(for: [first], timeout: 1)
                    let second = expectation(description: "second")
                    api.load(id: 2) { (result: Result<String, any Error>) in
                        trace.log("second \\((try? result.get()) ?? "failed")")
                        second.fulfill()
                    }
                    wait(for: [second], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let result: Result<String, any Error>
                    do {
                        result = .success(try await api.load(id: 1))
                    } catch {
                        result = .failure(error)
                    }
                    trace.log("first \\((try? result.get()) ?? "failed")")
                    do {
                        let result: Result<String, any Error>
                        do {
                            result = .success(try await api.load(id: 2))
                        } catch {
                            result = .failure(error)
                        }
                        trace.log("second \\((try? result.get()) ?? "failed")")
                    }
                }
                """)),
        CallExample(
            "a test that waits in a loop: each round awaits its call, then the code after it",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    for id in 1...2 {
                        let done = expectation(description: "load \\(id)")
                        api.load(id: id) { result in
                            switch result {
                            case .success(let text): trace.log("loaded \\(id): \\(text)")
                            case .failure(let error): trace.failed(error)
                            }
                            done.fulfill()
                        }
                        wait(for: [done], timeout: 1)
                    }
                    trace.log("after the loop")
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    for id in 1...2 {
                        do {
                            let text = try await api.load(id: id)
                            trace.log("loaded \\(id): \\(text)")
                        } catch {
                            trace.failed(error)
                        }
                    }
                    trace.log("after the loop")
                }
                """)),
        CallExample(
            "a `return` in a handler in a loop: awaited, it would end the loop, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    for id in 1...2 {
                        let done = expectation(description: "load \\(id)")
                        api.load(id: id) { result in
                            guard case .success(let text) = result else {
                                XCTFail("no value")
                                done.fulfill()
                                return
                            }
                            trace.log("loaded \\(text)")
                            done.fulfill()
                        }
                        wait(for: [done], timeout: 1)
                    }
                }
                """,
            after: .leftAlone(.expectation, "would now skip the code after the block that waits")),
        CallExample(
            "code after the wait that uses the expectation: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        trace.log("called")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                    trace.log(done.description)
                }
                """,
            after: .leftAlone(.expectation, "uses `done`, whose declaration goes")),
        CallExample(
            "code after the wait declaring a name the handler's code declares: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        trace.log("\\(result)")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                    let result = "after"
                    trace.log(result)
                }
                """,
            after: .leftAlone(.expectation, "`result` is declared")),
    ]
}
