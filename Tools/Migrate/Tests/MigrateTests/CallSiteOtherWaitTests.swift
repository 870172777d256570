import MigrateCore
import Testing

/// A test method that waits more than once: made async by one of its calls, its other
/// blocking waits become `await fulfillment(of:timeout:)`, or the call is left alone.
@Suite("Call sites: a test's other waits")
struct CallSiteOtherWaitTests {
    @Test("A later phase left alone (inverted): its wait is awaited, so the async test blocks no thread")
    func laterPhaseLeftAlone() throws {
        let (text, result) = try CallSiteFixtures.rewrite(
            """
            func testLoadThenNothing(api: FakeAPI, trace: Trace) {
                let loaded = expectation(description: "load")
                api.load(id: 1) { result in
                    trace.log("\\(result)")
                    loaded.fulfill()
                }
                wait(for: [loaded], timeout: 1)
                let none = expectation(description: "none")
                none.isInverted = true
                api.load(id: 2) { result in
                    none.fulfill()
                }
                wait(for: [none], timeout: 0.5)
            }
            """)
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(text.contains("func testLoadThenNothing(api: FakeAPI, trace: Trace) async throws {"), "\(text)")
        #expect(text.contains("    await fulfillment(of: [none], timeout: 0.5)\n}"), "\(text)")
        #expect(!text.contains("wait(for:"), "\(text)")
    }

    @Test(
        "Another wait that cannot be awaited (every expectation, or no timeout): left alone",
        arguments: ["waitForExpectations(timeout: 1)", "wait(for: [other])"])
    func otherWaitNotAwaitable(other: String) throws {
        let program = """
            func testLoad(api: FakeAPI, trace: Trace) {
                let done = expectation(description: "load")
                api.load(id: 1) { result in
                    trace.log("\\(result)")
                    done.fulfill()
                }
                wait(for: [done], timeout: 1)
                let other = expectation(description: "other")
                other.fulfill()
                \(other)
            }
            """
        let (text, result) = try CallSiteFixtures.rewrite(program)
        #expect(result.convertedCount == 0, "\(result.entries)")
        #expect(text == program)
    }

    @Test("A `break` in a handler in a loop: awaited, it would end the loop; left alone")
    func breakInLoop() throws {
        let program = """
            func testLoadAll(api: FakeAPI, trace: Trace) {
                for id in 1...3 {
                    let done = expectation(description: "load")
                    api.load(id: id) { result in
                        switch result {
                        case .success(let text):
                            trace.log(text)
                            break
                        case .failure(let error):
                            trace.failed(error)
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
            }
            """
        let (text, result) = try CallSiteFixtures.rewrite(program)
        #expect(result.convertedCount == 0, "\(result.entries)")
        #expect(result.entries.first?.description.contains("`break` or `continue`") ?? false, "\(result.entries)")
        #expect(text == program)
    }
}
