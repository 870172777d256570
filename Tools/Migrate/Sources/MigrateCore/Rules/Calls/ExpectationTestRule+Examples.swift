/// The before/after examples of ``ExpectationTestRule`` (the rewritten ones run as trace programs).
extension ExpectationTestRule {
    /// In this order, which numbers the trace programs (`Tests/CallSiteTraces/Programs.swift`):
    /// tests waiting for one expectation, the helpers that wait
    /// (`ExpectationTestRule+HelperExamples.swift`), the other waits, then code after the wait
    /// (`ExpectationTestRule+PhaseExamples.swift`).
    static let examples: [CallExample] = oneWait + helperExamples + otherWaits + phaseExamples

    private static let oneWait: [CallExample] = [
        CallExample(
            "a test that waits for the handler becomes async throws",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let user):
                            trace.log("loaded \\(user)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    do {
                        let user = try await api.load(id: 1)
                        trace.log("loaded \\(user)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "an inverted expectation checks that the handler is not called: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    done.isInverted = true
                    api.load(id: 1) { result in
                        trace.log("called")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "inverted")),
        CallExample(
            "an expected fulfilment count counts the handler's calls: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    done.expectedFulfillmentCount = 2
                    api.load(id: 1) { result in
                        trace.log("called")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "several fulfilments")),
        CallExample(
            "`XCTFail; fulfill(); return`: the `return` ends the test, as the wait did",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 3) { result in
                        switch result {
                        case .success(let text):
                            guard text == "v" else {
                                XCTFail("unexpected \\(text)")
                                done.fulfill()
                                return
                            }
                            trace.log("loaded \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    do {
                        let text = try await api.load(id: 3)
                        guard text == "v" else {
                            XCTFail("unexpected \\(text)")
                            return
                        }
                        trace.log("loaded \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "`fulfill()` on success, `XCTFail` otherwise: that path fails, before and after",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 4) { result in
                        switch result {
                        case .success(let text):
                            trace.log("loaded \\(text)")
                            done.fulfill()
                        default:
                            trace.log("failed")
                            XCTFail()
                        }
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    do {
                        let text = try await api.load(id: 4)
                        trace.log("loaded \\(text)")
                    } catch {
                        trace.log("failed")
                        XCTFail()
                    }
                }
                """)),
        CallExample(
            "an expectation fulfilled where this tool does not follow: the test still awaits it",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text):
                            trace.log("loaded \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                        DispatchQueue.main.async { done.fulfill() }
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let done = expectation(description: "load")
                    do {
                        let text = try await api.load(id: 1)
                        trace.log("loaded \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                    DispatchQueue.main.async { done.fulfill() }
                    await fulfillment(of: [done], timeout: 1)
                }
                """),
            notes: ["still awaits `done`"]),
    ]

    private static let otherWaits: [CallExample] = [
        CallExample(
            "a wait for several expectations: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    let other = expectation(description: "other")
                    other.fulfill()
                    api.load(id: 1) { result in
                        trace.log("called")
                        done.fulfill()
                    }
                    wait(for: [done, other], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "several expectations")),
        CallExample(
            "two calls waited for together: the first is left alone for the same reason as the second",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let first = expectation(description: "first")
                    api.load(id: 1) { result in
                        trace.log("first")
                        first.fulfill()
                    }
                    let second = expectation(description: "second")
                    api.save("a") { error in
                        trace.log("second")
                        second.fulfill()
                    }
                    wait(for: [first, second], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "several expectations (`first`, `second`)")),
        CallExample(
            "`fulfill(); return` inside `#if`: each clause is a branch, as in an `if`",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 3) { result in
                        switch result {
                        case .success(let text):
                            #if canImport(Dispatch)
                                guard text == "v" else {
                                    XCTFail("unexpected \\(text)")
                                    done.fulfill()
                                    return
                                }
                            #endif
                            trace.log("loaded \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    do {
                        let text = try await api.load(id: 3)
                        #if canImport(Dispatch)
                            guard text == "v" else {
                                XCTFail("unexpected \\(text)")
                                return
                            }
                        #endif
                        trace.log("loaded \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "`fulfill()` in an `#if` without `#else`: still awaited (other builds time out)",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text):
                            trace.log("loaded \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                        #if canImport(Dispatch)
                            done.fulfill()
                        #endif
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    let done = expectation(description: "load")
                    do {
                        let text = try await api.load(id: 1)
                        trace.log("loaded \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                    #if canImport(Dispatch)
                        done.fulfill()
                    #endif
                    await fulfillment(of: [done], timeout: 1)
                }
                """),
            notes: ["still awaits `done`"]),
        CallExample(
            "an `override` (`tearDownWithError`): XCTest calls it as it is declared, left alone",
            before: """
                override func tearDownWithError() throws {
                    let trace = Trace()
                    let api = FakeAPI(outcome: .value, trace: trace)
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let user):
                            trace.log("loaded \\(user)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "overrides a method XCTest calls")),
        CallExample(
            "assertions after the wait read what the handler set: they follow the awaited code",
            before: """
                func run(api: FakeAPI, trace: Trace) {
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
                    XCTAssertEqual(received.value, "v")
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
                    XCTAssertEqual(received.value, "v")
                }
                """)),
        CallExample(
            "assertions after the wait and a `return` in the handler: awaited, it would skip them, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    let received = Received(trace: trace)
                    api.load(id: 3) { result in
                        switch result {
                        case .success(let text):
                            guard text == "v" else {
                                XCTFail("unexpected \\(text)")
                                done.fulfill()
                                return
                            }
                            received.value = text
                        case .failure(let error):
                            received.value = "failed \\(type(of: error))"
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                    XCTAssertEqual(received.value, "v")
                }
                """,
            after: .leftAlone(.expectation, "would now skip the statements after the wait")),
    ]
}
