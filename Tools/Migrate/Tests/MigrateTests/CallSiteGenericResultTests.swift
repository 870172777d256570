import MigrateCore
import Testing

/// A `Result` kept whole whose success type is a generic parameter of the API: the call
/// names it through a metatype argument (`as: Int.self`), or the call is left alone.
@Suite("Call sites: a generic result named by a metatype argument")
struct CallSiteGenericResultTests {
    static func program(_ argument: String) -> String {
        """
        final class Client: Sendable {
            func send<U: Decodable>(
                _ path: String, as type: U.Type, completion: @escaping @Sendable (Result<U, any Error>) -> Void
            ) {}
            func send<U: Decodable>(_ path: String, as type: U.Type) async throws -> U { fatalError() }
        }

        func testSend(client: Client, trace: Trace) {
            let kind = [String: Int].self
            let done = expectation(description: "send")
            client.send("a", as: \(argument)) { result in
                trace.log("\\(result)")
                done.fulfill()
            }
            wait(for: [done], timeout: 1)
        }
        """
    }

    @Test("`as: [String: Int].self` names `U`: the whole result is written with it")
    func named() throws {
        let (text, result) = try CallSiteFixtures.rewrite(Self.program("[String: Int].self"))
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(text.contains("    let result: Result<[String: Int], any Error>\n    do {"), "\(text)")
        #expect(text.contains("result = .success(try await client.send(\"a\", as: [String: Int].self))"), "\(text)")
    }

    @Test("A metatype passed in a variable does not name `U` at the call: left alone")
    func unnamed() throws {
        let (text, result) = try CallSiteFixtures.rewrite(Self.program("kind"))
        #expect(result.convertedCount == 0, "\(result.entries)")
        #expect(result.entries.first?.outcome.reason == .handlerPattern, "\(result.entries)")
        #expect(text == Self.program("kind"))
    }
}
