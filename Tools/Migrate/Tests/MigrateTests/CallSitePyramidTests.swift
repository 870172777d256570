import Testing

@testable import MigrateCore

/// Callback pyramids in tests, rewritten in passes: each pass awaits the calls in async
/// code, and the handler code it moves into the test holds the next level's calls.
@Suite("Call sites: pyramids in tests, pass after pass")
struct CallSitePyramidTests {
    static let pyramid = """
        import XCTest

        final class StoreTests: XCTestCase {
            let api = FakeAPI(outcome: .value, trace: Trace())

            func testSaveThenLoad() {
                let done = expectation(description: "saved, then loaded")
                api.save("a") { error in
                    XCTAssertNil(error)
                    self.api.save("b") { error in
                        XCTAssertNil(error, "second save")
                        self.api.load(id: 1) { result in
                            switch result {
                            case .success(let text):
                                XCTAssertEqual(text, "v")
                            case .failure(let error):
                                XCTFail("\\(error)")
                            }
                            done.fulfill()
                        }
                    }
                }
                waitForExpectations(timeout: 5)
            }

            static var allTests = [
                ("testSaveThenLoad", testSaveThenLoad),
            ]
        }
        """

    @Test("Three levels: three awaits in order, the expectation gone, the Linux manifest lists asyncTest")
    func threeLevels() throws {
        let (text, result) = try CallSiteFixtures.rewrite(Self.pyramid)
        #expect(
            text == """
                import XCTest

                final class StoreTests: XCTestCase {
                    let api = FakeAPI(outcome: .value, trace: Trace())

                    func testSaveThenLoad() async throws {
                        try await api.save("a")
                        try await self.api.save("b")
                        let text = try await self.api.load(id: 1)
                        XCTAssertEqual(text, "v")
                    }

                    static var allTests = [
                        ("testSaveThenLoad", asyncTest(testSaveThenLoad)),
                    ]
                }
                """)
        // Each call once, at its line in the file as written, converted.
        #expect(result.entries.map(\.line) == [8, 10, 12])
        #expect(result.convertedCount == 3)
        // The steps' "still awaits `done`" went with the expectation.
        let notes = result.entries.flatMap { entry -> [String] in
            if case .converted(let notes) = entry.outcome { notes } else { [] }
        }
        #expect(!notes.contains { $0.contains("still awaits") }, "\(notes)")
        #expect(notes.filter { $0.contains("throws out of the test") }.count == 3)
        // The diff is against the file as it was, in one piece.
        #expect(result.files.first?.diff.contains("-        api.save(\"a\") { error in") ?? false)
        #expect(result.files.first?.diff.contains("+        let text = try await self.api.load(id: 1)") ?? false)
    }

    @Test("A level the tool cannot await: the test still awaits its expectation there, which that level fulfils")
    func stopsWhereALevelCannotBeAwaited() throws {
        let lines = Self.pyramid.split(separator: "\n", omittingEmptySubsequences: false)
        // The last level's `switch` (six lines) becomes one assertion on `try? $0.get()`: a
        // handler that uses `$0` is left alone.
        let start = try #require(lines.firstIndex { $0.hasSuffix("switch result {") })
        let indent = lines[start].prefix { $0 == " " }
        let assertion = indent + "XCTAssertEqual(try? $0.get(), \"v\")"
        let program = (lines[..<start] + [assertion] + lines[(start + 6)...]).joined(separator: "\n")
            .replacingOccurrences(of: "self.api.load(id: 1) { result in", with: "self.api.load(id: 1) {")
        let (text, result) = try CallSiteFixtures.rewrite(program)
        #expect(
            text == """
                import XCTest

                final class StoreTests: XCTestCase {
                    let api = FakeAPI(outcome: .value, trace: Trace())

                    func testSaveThenLoad() async throws {
                        let done = expectation(description: "saved, then loaded")
                        try await api.save("a")
                        try await self.api.save("b")
                        self.api.load(id: 1) {
                            XCTAssertEqual(try? $0.get(), "v")
                            done.fulfill()
                        }
                        await fulfillment(of: [done], timeout: 5)
                    }

                    static var allTests = [
                        ("testSaveThenLoad", asyncTest(testSaveThenLoad)),
                    ]
                }
                """)
        #expect(result.convertedCount == 2)
        let last = try #require(result.entries.last)
        #expect(last.line == 12 && !last.isConverted)
        let kept = result.entries.flatMap { entry -> [String] in
            if case .converted(let notes) = entry.outcome { notes } else { [] }
        }
        #expect(kept.contains { $0.contains("still awaits `done`") }, "\(kept)")
    }

    @Test("A return in the handler that skips the expectation without a failure: left alone")
    func returnWithoutAFailure() throws {
        let program = Self.pyramid.replacingOccurrences(
            of: "            XCTAssertNil(error)\n            self.api.save",
            with: "            if error != nil { return }\n            self.api.save")
        let (text, result) = try CallSiteFixtures.rewrite(program)
        #expect(text == program)
        #expect(result.convertedCount == 0)
    }

    @Test("A return after XCTFail: the test failed there by timing out, and now fails and ends")
    func returnAfterAFailure() throws {
        let program = Self.pyramid.replacingOccurrences(
            of: "            XCTAssertNil(error)\n            self.api.save",
            with:
                "            if let error {\n                XCTFail(\"\\(error)\")\n                return\n            }\n"
                + "            self.api.save")
        let (text, result) = try CallSiteFixtures.rewrite(program)
        #expect(result.convertedCount == 3, "\(result.entries)")
        #expect(text.contains("func testSaveThenLoad() async throws {\n        try await api.save(\"a\")\n"))
    }

    @Test("Line origins: a line a pass wrote maps to the original line that reads the same")
    func lineOrigins() {
        var origins = LineOrigins(original: ["a", "  b {", "    c", "  }", "d"])
        // Pass 1 writes lines 1...3 anew, `c` moved out of its block.
        origins.apply([LineEdit(first: 1, last: 3, lines: ["  x", "  c"])])
        #expect(origins.originalLine(of: 1, text: "a") == 1)
        #expect(origins.originalLine(of: 3, text: "  c") == 3)
        #expect(origins.originalLine(of: 2, text: "  x") == 2)
        #expect(origins.originalLine(of: 4, text: "d") == 5)
        // Pass 2 rewrites a written line: still the same original region.
        origins.apply([LineEdit(first: 2, last: 2, lines: ["  y", "  z"])])
        let current = ["a", "  x", "  y", "  z", "d"]
        #expect(origins.edits(to: current) == [LineEdit(first: 1, last: 3, lines: ["  x", "  y", "  z"])])
        #expect(mapped(2...2, through: [LineEdit(first: 2, last: 2, lines: ["  y", "  z"])]) == 2...2)
        #expect(mapped(3...3, through: [LineEdit(first: 2, last: 2, lines: ["  y", "  z"])]) == 3...4)
        #expect(mapped(4...4, through: [LineEdit(first: 1, last: 1, lines: [])]) == 3...3)
    }
}
