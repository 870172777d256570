import MigrateCore
import Testing

/// A suite that makes `XCTestExpectation()` and waits through its own `wait(for:)`, which
/// forwards to XCTest's wait with a timeout of the suite's.
@Suite("Call sites: a test suite's own wait(for:)")
struct CallSiteModuleWaitTests {
    static func program(helper: String) -> String {
        """
        import XCTest

        extension XCTestCase {
            \(helper)
        }

        final class LoaderTests: XCTestCase {
            let api = FakeAPI(outcome: .value, trace: Trace())

            func testLoad() throws {
                let expectation = XCTestExpectation()
                api.load(id: 1) { result in
                    do {
                        let text = try result.get()
                        XCTAssertEqual(text, "v")
                    } catch {
                        XCTFail(error.localizedDescription)
                    }
                    expectation.fulfill()
                }
                wait(for: [expectation])
            }
        }
        """
    }

    static let forwarding = """
        func wait(for expectations: [XCTestExpectation]) {
                wait(for: expectations, timeout: 1)
            }
        """

    @Test("`wait(for:)` that only forwards with a timeout: the test awaits the call, the wait goes")
    func forwarding() throws {
        let (text, result) = try CallSiteFixtures.rewrite(Self.program(helper: Self.forwarding))
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(
            text.contains(
                """
                    func testLoad() async throws {
                        let text = try await api.load(id: 1)
                        XCTAssertEqual(text, "v")
                    }
                """), "\(text)")
    }

    @Test(
        "A `wait(for:)` that does more, or none: the call is left alone",
        arguments: [
            """
            func wait(for expectations: [XCTestExpectation]) {
                    print("waiting")
                    wait(for: expectations, timeout: 1)
                }
            """,
            """
            func wait(for expectations: [XCTestExpectation]) {
                    wait(for: expectations.dropLast(), timeout: 1)
                }
            """,
            "",
        ])
    func notForwarding(helper: String) throws {
        let (text, result) = try CallSiteFixtures.rewrite(Self.program(helper: helper))
        #expect(result.convertedCount == 0, "\(result.entries)")
        #expect(text == Self.program(helper: helper))
    }
}
