import MigrateCore
import Testing

/// XCTest methods that wait for a handler with an expectation, as a test suite writes them.
@Suite("Call sites: XCTest expectations")
struct CallSiteExpectationTests {
    static func rewrite(_ program: String) throws -> (text: String, result: CallMigrationResult) {
        try CallSiteFixtures.rewrite(program)
    }

    @Test(
        "waitForExpectations, assertions in the handler, a throwing method: async, the assertions in order, failure thrown"
    )
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
                        let text = try await api.load(id: 2)
                        XCTAssertEqual(text, "v")
                        XCTAssertFalse(text.isEmpty)
                    }
                }
                """)
    }

    @Test("A return in the handler that skips `fulfill()` without a failure: left alone with the reason")
    func leftAlone() throws {
        // An early return skipped fulfill(): the test failed by timing out; awaited, it would pass.
        let program = """
            func testLoad(api: FakeAPI, trace: Trace) {
                let done = expectation(description: "load")
                api.load(id: 1) { result in
                    trace.log("called")
                    guard trace.isEnabled else { return }
                    done.fulfill()
                }
                wait(for: [done], timeout: 1)
            }
            """
        let (_, result) = try Self.rewrite(program)
        guard case .leftAlone(.expectation, let actual) = result.entries.first?.outcome else {
            Issue.record("not left alone: \(result.entries)")
            return
        }
        #expect(actual.contains("a `return` in the handler"), "\(actual)")
    }

    @Test("A wait's handler that checks the timeout goes with the wait; one that asserts more: left alone")
    func waitHandler() throws {
        let program = { (handler: String) in
            """
            func testLoad(api: FakeAPI, trace: Trace) {
                var loaded = ""
                let done = expectation(description: "load")
                api.load(id: 1) { result in
                    if case .success(let text) = result { loaded = text } else { XCTFail() }
                    done.fulfill()
                }
                waitForExpectations(timeout: 1) { error in
                    \(handler)
                }
            }
            """
        }
        let (checked, timeoutOnly) = try Self.rewrite(program("XCTAssertNil(error, \"timed out\")"))
        #expect(timeoutOnly.convertedCount == 1, "\(timeoutOnly.entries)")
        #expect(!checked.contains("waitForExpectations") && !checked.contains("timed out"), "\(checked)")
        let (_, more) = try Self.rewrite(program("XCTAssertEqual(loaded, \"v\")"))
        guard case .leftAlone(.expectation, let detail) = more.entries.first?.outcome else {
            Issue.record("not left alone: \(more.entries)")
            return
        }
        #expect(detail.contains("the wait's handler runs code after the wait"), "\(detail)")
    }

    @Test("Paths the wait ended differently: awaited, the test still awaits the expectation, which keeps them")
    func stillAwaited() throws {
        let programs = [
            // code after fulfill(): it ran after the wait could return; now before the test goes on.
            "done.fulfill()\n        trace.log(\"after\")",
            // a path without fulfill() or XCTFail: it timed out, and still does.
            "if trace.isEnabled {\n            done.fulfill()\n        }",
        ]
        for tail in programs {
            let program = """
                func testLoad(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let text):
                            trace.log(text)
                        case .failure(let error):
                            trace.failed(error)
                        }
                        \(tail)
                    }
                    wait(for: [done], timeout: 1)
                }
                """
            let (text, result) = try Self.rewrite(program)
            #expect(result.convertedCount == 1, "\(result.entries)")
            #expect(text.contains("    let done = expectation(description: \"load\")\n"))
            let kept = tail.replacingOccurrences(of: "\n    ", with: "\n")
            #expect(text.contains("    \(kept)\n    await fulfillment(of: [done], timeout: 1)\n}"), "\(text)")
        }
    }

    @Test("`waitForExpectations` after two calls waits for both: the last is left alone too")
    func waitForEvery() throws {
        let (_, result) = try Self.rewrite(
            """
            func testBoth(api: FakeAPI, trace: Trace) {
                let first = expectation(description: "first")
                api.save("a") { error in
                    trace.log("first")
                    first.fulfill()
                }
                let second = expectation(description: "second")
                api.load(id: 1) { result in
                    trace.log("second")
                    second.fulfill()
                }
                waitForExpectations(timeout: 1)
            }
            """)
        #expect(result.files.isEmpty)
        guard case .leftAlone(.expectation, let detail) = result.entries.last?.outcome else {
            Issue.record("not left alone: \(result.entries)")
            return
        }
        #expect(detail.contains("several expectations (`first`, `second`)"), "\(detail)")
    }

    @Test("`waitForExpectations` with an expectation made another way: left alone")
    func waitForEveryKind() throws {
        let (_, result) = try Self.rewrite(
            """
            func testLoad(api: FakeAPI, trace: Trace, flag: NSObject) {
                _ = self.expectation(for: NSPredicate(value: true), evaluatedWith: flag)
                let done = expectation(description: "load")
                api.load(id: 1) { result in
                    trace.log("loaded")
                    done.fulfill()
                }
                waitForExpectations(timeout: 1)
            }
            """)
        #expect(result.files.isEmpty)
        guard case .leftAlone(.expectation, let detail) = result.entries.last?.outcome else {
            Issue.record("not left alone: \(result.entries)")
            return
        }
        #expect(detail.contains("makes more than `done`"), "\(detail)")
    }

    @Test("A test in two phases, each waiting for its expectation: both calls converted, in two passes")
    func twoPhases() throws {
        let (text, result) = try Self.rewrite(
            """
            func testLoadTwice(api: FakeAPI, trace: Trace) {
                let first = expectation(description: "first")
                api.load(id: 1) { result in
                    trace.log("first \\(result)")
                    first.fulfill()
                }
                wait(for: [first], timeout: 1)
                let second = expectation(description: "second")
                api.load(id: 2) { outcome in
                    trace.log("second \\(outcome)")
                    second.fulfill()
                }
                wait(for: [second], timeout: 1)
                trace.log("done")
            }
            """)
        #expect(result.convertedCount == 2, "\(result.entries)")
        #expect(!text.contains("expectation(") && !text.contains("wait(for:"), "\(text)")
        let order = ["first", "second", "\"done\""].map { text.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order == order.sorted { $0! < $1! }, "\(text)")
    }

    @Test(
        "A wait in an `if` converts; in a `catch`, a `switch` case or a closure, the call is not this rule's",
        arguments: [
            ("if trace.isEnabled {", "}", true), ("do { try trace.check(\"v\") } catch {", "}", false),
            ("switch 1 { case 1:", "default: break }", false), ("let run = {", "}; run()", false),
        ])
    func waitInABlock(opening: String, closing: String, converts: Bool) throws {
        let (text, result) = try Self.rewrite(
            """
            func testLoad(api: FakeAPI, trace: Trace) {
                \(opening)
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        trace.log("loaded \\(result)")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                \(closing)
                trace.log("after")
            }
            """)
        #expect((result.convertedCount == 1) == converts, "\(result.entries)")
        #expect(text.contains("wait(for:") != converts, "\(text)")
    }

    /// A helper that waits (EssentialFeed's `insert(_:to:) -> Error?`), called by tests as a
    /// statement, in a `let`, with `_ =` and inside assertions (hoisted): all converted at once.
    static let helperTests = """
        final class StoreTests: XCTestCase {
            let api = FakeAPI(outcome: .value, trace: Trace())

            func testLoadTwice() {
                let first = load(id: 1)
                XCTAssertEqual(first, "v")
                load(id: 2)
                _ = load(id: 3)
                XCTAssertEqual(
                    load(id: 4),
                    "v",
                    file: #filePath, line: #line)
            }

            func testLoadOnce() throws {
                XCTAssertNotNil(load(id: 1), "loaded \\(first)")
            }

            @discardableResult
            private func load(id: Int, file: StaticString = #filePath) -> String? {
                let exp = expectation(description: "Wait for load")
                var loaded: String?
                api.load(id: id) { result in
                    switch result {
                    case .success(let text):
                        loaded = text
                    case .failure(let error):
                        XCTFail("\\(error)", file: file)
                    }
                    exp.fulfill()
                }
                wait(for: [exp], timeout: 1.0)
                return loaded
            }
        }
        """

    @Test("A helper that waits and the tests that call it: async together, calls in assertions hoisted")
    func helperAndCallers() throws {
        let (text, result) = try Self.rewrite(Self.helperTests)
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(
            text == """
                final class StoreTests: XCTestCase {
                    let api = FakeAPI(outcome: .value, trace: Trace())

                    func testLoadTwice() async throws {
                        let first = try await load(id: 1)
                        XCTAssertEqual(first, "v")
                        try await load(id: 2)
                        _ = try await load(id: 3)
                        let loadResult = try await load(id: 4)
                        XCTAssertEqual(
                            loadResult,
                            "v",
                            file: #filePath, line: #line)
                    }

                    func testLoadOnce() async throws {
                        let loadResult = try await load(id: 1)
                        XCTAssertNotNil(loadResult, "loaded \\(first)")
                    }

                    @discardableResult
                    private func load(id: Int, file: StaticString = #filePath) async throws -> String? {
                        var loaded: String?
                        do {
                            let text = try await api.load(id: id)
                            loaded = text
                        } catch {
                            XCTFail("\\(error)", file: file)
                        }
                        return loaded
                    }
                }
                """)
        #expect(result.report().contains("its 5 calls await it (in `testLoadTwice`, `testLoadOnce`, made"))
    }

    @Test("A helper that waits, with a caller it cannot convert: left alone with its callers, and why")
    func helperLeftAlone() throws {
        let cases = [
            ("    override func setUp() {\n        load(id: 9)\n    }", "an override"),
            ("    func testAsync() async {\n        load(id: 9)\n    }", "already async"),
            (
                "    func testWaits() {\n        load(id: 9)\n        let e = expectation(description: \"e\")\n"
                    + "        e.fulfill()\n        wait(for: [e], timeout: 1)\n    }",
                "waits for an expectation itself"
            ),
            ("    func testMember(other: StoreTests) {\n        other.load(id: 9)\n    }", "called on another value"),
            (
                "    func testNested() {\n        XCTAssertNil(load(id: load(id: 1) == nil ? 1 : 2))\n    }",
                "part of an expression"
            ),
        ]
        for (caller, detail) in cases {
            let program = Self.helperTests.replacingOccurrences(
                of: "    @discardableResult", with: caller + "\n\n    @discardableResult")
            let (_, result) = try Self.rewrite(program)
            #expect(result.files.isEmpty, "\(detail)")
            guard case .leftAlone(.expectation, let actual) = result.entries.first?.outcome else {
                Issue.record("not left alone: \(result.entries)")
                continue
            }
            #expect(actual.contains(detail), "\(actual)")
        }
        // A method of another type calls a function of the same name: perhaps not this one.
        let (_, otherType) = try Self.rewrite(
            Self.helperTests
                + "\n\nfinal class OtherTests: XCTestCase {\n    func testOther() {\n        load(id: 9)\n    }\n}")
        #expect(otherType.files.isEmpty)
        guard case .leftAlone(.expectation, let reason) = otherType.entries.first?.outcome else {
            Issue.record("not left alone: \(otherType.entries)")
            return
        }
        #expect(reason.contains("is in `testOther` of another type"), "\(reason)")
        // A caller in another file: the two are converted together or not at all.
        let other = SourceInput(
            path: "Other.swift", text: "func testElsewhere(tests: StoreTests) {\n    load(id: 9)\n}")
        let result = CallMigrator().migrate(
            [SourceInput(path: "Program.swift", text: Self.helperTests), other], context: try CallSiteFixtures.api())
        #expect(result.files.isEmpty)
        guard case .leftAlone(.expectation, let actual) = result.entries.first?.outcome else {
            Issue.record("not left alone: \(result.entries)")
            return
        }
        #expect(actual.contains("`load(…)` at Other.swift:2 is in another file"), "\(actual)")
    }
}
