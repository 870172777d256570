import MigrateCore
import Testing

/// Shapes found in real test suites (Parse-Swift, Cache): a typed failure in a test, a
/// callback queue passed through, a scoped form written by an earlier run.
@Suite("Call sites: shapes of real test suites")
struct CallSiteRealShapeTests {
    static let api = SourceInput(
        path: "Client.swift",
        text: """
            import Dispatch

            public struct ClientError: Error {
                public var code: Int
            }

            public final class Item {}

            public final class Client: Sendable {
                public func user(
                    id: Int, callbackQueue: DispatchQueue = .main,
                    completion: @escaping @Sendable (Result<String, ClientError>) -> Void
                ) {}
                public func item(id: Int, completion: @escaping (Result<Item, ClientError>) -> Void) {}
            }
            """)

    static func rewrite(_ program: String, api: [SourceInput] = [api]) -> (text: String, result: CallMigrationResult) {
        let result = CallMigrator().migrate([SourceInput(path: "Tests.swift", text: program)], context: api)
        return (result.files.first?.text ?? program, result)
    }

    /// The async form's own errors fail the test; the global queue needs no hop; of two blank
    /// lines around the expectation, one goes with it.
    @Test("A typed failure in a test: `catch let error as T`; a global queue; blank lines")
    func typedFailureInTest() {
        let (text, result) = Self.rewrite(
            """
            final class ClientTests: XCTestCase {
                let client = Client()

                func testUser() {
                    let id = 1

                    let expectation1 = XCTestExpectation(description: "user")

                    client.user(id: id, callbackQueue: .global(qos: .background)) { result in
                        switch result {
                        case .success(let name):
                            XCTAssertEqual(name, "n")
                        case .failure(let error):
                            XCTFail("\\(error.code)")
                        }
                        expectation1.fulfill()
                    }
                    wait(for: [expectation1], timeout: 20.0)
                }
            }
            """)
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(result.entries.first?.description.contains("global concurrent") == true, "\(result.entries)")
        #expect(
            text == """
                final class ClientTests: XCTestCase {
                    let client = Client()

                    func testUser() async throws {
                        let id = 1

                        do {
                            let name = try await client.user(id: id)
                            XCTAssertEqual(name, "n")
                        } catch let error as ClientError {
                            XCTFail("\\(error.code)")
                        }
                    }
                }
                """)
    }

    @Test("A typed failure outside a test, and a global queue in an actor: left alone")
    func typedFailureElsewhere() {
        let programs = [
            (
                "func show(client: Client) async {\n    client.user(id: 1) { result in\n"
                    + "        switch result {\n        case .success(let name): print(name)\n"
                    + "        case .failure(let error): print(error.code)\n        }\n    }\n}",
                "the failure code uses"
            ),
            (
                "actor Screen {\n    func show(client: Client) async {\n"
                    + "        client.user(id: 1, callbackQueue: .global()) { result in\n"
                    + "            if case .success(let name) = result { print(name) } else { print(\"no\") }\n"
                    + "        }\n    }\n}",
                "no callback queue"
            ),
        ]
        for (program, detail) in programs {
            let (_, result) = Self.rewrite(program)
            guard case .leftAlone(_, let actual) = result.entries.first?.outcome else {
                Issue.record("not left alone: \(result.entries)")
                continue
            }
            #expect(actual.contains(detail), "\(actual)")
        }
    }

    /// A Swift 5 test reads a local `var` in a handler (Swift 6 rejects that before the
    /// rewrite, so the trace programs cannot show it): `MainActor.run`'s `@Sendable` closure
    /// takes its value, which nothing changes before the closure runs; an assigned one is
    /// left alone.
    @Test("A local var read in main-queue code: captured by value (`T!`: copied with its type); assigned: left alone")
    func localVariableInHop() {
        let (text, result) = Self.rewrite(
            """
            final class ClientTests: XCTestCase {
                func testUser(client: Client) {
                    var expected = "n"
                    var other: String!
                    let done = expectation(description: "user")
                    client.user(id: 1) { result in
                        switch result {
                        case .success(let name):
                            XCTAssertEqual(name, expected)
                            XCTAssertEqual(other.count, 1)
                        case .failure:
                            XCTFail(expected)
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }

                func testAssign(client: Client) {
                    var got = ""
                    let done = expectation(description: "user")
                    client.user(id: 1) { result in
                        if case .success(let name) = result { got = name } else { XCTFail() }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
            }
            """)
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(text.contains("await MainActor.run { [expected] in\n                XCTAssertEqual(name, expected)"))
        #expect(text.contains("await MainActor.run { [expected] in\n                XCTFail(expected)"))
        #expect(
            text.contains(
                "let other: String! = other\n            await MainActor.run { [expected] in\n"
                    + "                XCTAssertEqual(name, expected)\n                XCTAssertEqual(other.count, 1)"))
        guard case .leftAlone(.captureList, let detail) = result.entries.last?.outcome else {
            Issue.record("not left alone: \(result.entries)")
            return
        }
        #expect(detail.contains("assigns a local `var`"))
    }

    @Test("A scoped form an earlier run wrote (the handler's label kept, async) is not awaited for the value")
    func writtenScopedForm() {
        let written = SourceInput(
            path: "Client+Async.swift",
            text: """
                extension Client {
                    public nonisolated(nonsending) func item<Output: Sendable>(
                        id: Int, completion: sending @escaping (Item) throws -> Output
                    ) async throws -> Output {
                        fatalError()
                    }
                }
                """)
        let (_, result) = Self.rewrite(
            """
            func show(client: Client) async {
                client.item(id: 1) { result in
                    if case .success(let item) = result { print(item) } else { print("no") }
                }
            }
            """, api: [Self.api, written])
        guard case .leftAlone(.scoped, _) = result.entries.first?.outcome else {
            Issue.record("not left alone as scoped: \(result.entries)")
            return
        }
    }
}
