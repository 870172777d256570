import MigrateCore
import Testing

/// XCTest methods that wait for a handler with an expectation, as a test suite writes them.
@Suite("Call sites: XCTest expectations")
struct CallSiteExpectationTests {
    static func rewrite(_ program: String) throws -> (text: String, result: CallMigrationResult) {
        try CallSiteFixtures.rewrite(program)
    }

    @Test("waitForExpectations, assertions in the handler, a method that throws: async, the assertions in order")
    // (A `return` in the handler before `fulfill()` fails the test by timing out: left alone, see below.)
    func xctestCase() throws {
        let (text, result) = try Self.rewrite(
            """
            import XCTest

            final class LoaderTests: XCTestCase {
                let api = FakeAPI(outcome: .value, trace: Trace())

                func testLoad() throws {
                    let loaded = self.expectation(description: "loaded")
                    api.load(id: 2) { result in
                        switch result {
                        case .success(let text):
                            XCTAssertEqual(text, "v")
                            XCTAssertFalse(text.isEmpty)
                        case .failure(let error):
                            XCTFail("\\(error)")
                        }
                        loaded.fulfill()
                    }
                    waitForExpectations(timeout: 5)
                }
            }
            """)
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(
            text == """
                import XCTest

                final class LoaderTests: XCTestCase {
                    let api = FakeAPI(outcome: .value, trace: Trace())

                    func testLoad() async throws {
                        do {
                            let text = try await api.load(id: 2)
                            XCTAssertEqual(text, "v")
                            XCTAssertFalse(text.isEmpty)
                        } catch {
                            XCTFail("\\(error)")
                        }
                    }
                }
                """)
    }

    @Test("The expectation's shape not kept: left alone with the reason")
    func leftAlone() throws {
        let programs = [
            // code after fulfill(): it ran after the wait could return.
            ("runs after `done.fulfill()`", "done.fulfill()\n        trace.log(\"after\")"),
            // an early return skipped fulfill(): the test failed by timing out.
            ("a `return` in the handler", "guard trace.isEnabled else { return }\n        done.fulfill()"),
            // a path without fulfill() or XCTFail: it timed out; awaited, it would pass.
            ("ends without `done.fulfill()`", "if trace.isEnabled {\n            done.fulfill()\n        }"),
        ]
        for (detail, tail) in programs {
            let program = """
                func testLoad(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        trace.log("called")
                        \(tail)
                    }
                    wait(for: [done], timeout: 1)
                }
                """
            let (_, result) = try Self.rewrite(program)
            guard case .leftAlone(.expectation, let actual) = result.entries.first?.outcome else {
                Issue.record("not left alone: \(result.entries)")
                continue
            }
            #expect(actual.contains(detail), "\(actual)")
        }
    }

    @Test("Code after the wait other than assertions: the call is left alone")
    func codeAfterWait() throws {
        let (_, result) = try Self.rewrite(
            """
            func testLoad(api: FakeAPI, trace: Trace) {
                let done = expectation(description: "load")
                api.load(id: 1) { result in
                    trace.log("called")
                    done.fulfill()
                }
                wait(for: [done], timeout: 1)
                trace.log("after")
            }
            """)
        #expect(result.files.isEmpty)
        guard case .leftAlone(.expectation, let detail) = result.entries.first?.outcome else {
            Issue.record("not left alone: \(result.entries)")
            return
        }
        #expect(detail.contains("`trace.log(\"after\")` is not an assertion"), "\(detail)")
    }
}
