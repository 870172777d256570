import MigrateCore
import Testing

/// Shapes near the ones converted that must stay as they are: what the tool would write
/// there would not compile, or would change what the code does.
@Suite("Call sites: shapes that stay")
struct CallSiteNarrowShapeTests {
    @Test("A pyramid whose awaited call is reached through `self?.`: left alone")
    func optionalChainCallee() throws {
        let (_, result) = try CallSiteFixtures.rewrite(
            """
            final class Store: Sendable {
                let api: FakeAPI

                init(api: FakeAPI) {
                    self.api = api
                }

                func reload(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                    api.save("a") { [weak self] error in
                        if let error {
                            completion(.failure(error))
                            return
                        }
                        self?.api.load(id: 1) { result in
                            completion(result)
                        }
                    }
                }
            }
            """)
        let function = try #require(result.functions.first)
        #expect(function.outcome.reason == .captureList, "\(function)")
        #expect(function.description.contains("optional chain"), "\(function)")
        #expect(result.files.isEmpty)
    }

    @Test("Code after the handler's switch ran after the completion: the function is left alone")
    func codeAfterSwitch() throws {
        let (_, result) = try CallSiteFixtures.rewrite(
            """
            func title(api: FakeAPI, trace: Trace, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
                api.load(id: 1) { result in
                    switch result {
                    case .success(let text):
                        completion(.success(text))
                    case .failure(let error):
                        completion(.failure(error))
                    }
                    trace.log("loaded")
                }
            }
            """)
        let function = try #require(result.functions.first)
        #expect(function.outcome.reason == .completionReordered, "\(function)")
        #expect(result.files.isEmpty)
    }

    @Test("A `(Bool)` handler: the function is left alone")
    func boolHandler() throws {
        let (_, result) = try CallSiteFixtures.rewrite(
            """
            func isLong(api: FakeAPI, text: String, completion: @escaping @Sendable (Bool) -> Void) {
                api.measure(text) { count in
                    completion(count > 3)
                }
            }
            """)
        let function = try #require(result.functions.first)
        #expect(function.outcome.reason == .functionSignature, "\(function)")
    }

    @Test("`guard let strongSelf = self` with `strongSelf` in a closure's capture list: left alone")
    func strongSelfCaptured() throws {
        let (_, result) = try CallSiteFixtures.rewrite(
            """
            final class Model: Sendable {
                let trace = Trace()

                func refresh(api: FakeAPI) async {
                    api.save("a") { [weak self] error in
                        guard let strongSelf = self else { return }
                        let log = { [strongSelf] in strongSelf.trace.log("saved \\(error == nil)") }
                        log()
                    }
                }
            }
            """)
        let entry = try #require(result.entries.first)
        #expect(entry.outcome.reason == .captureList, "\(entry)")
        #expect(result.files.isEmpty)
    }

    @Test("A tab-indented function with a multi-line string: its string's blanks are kept")
    func multiLineStringInTabbedFile() throws {
        let program = [
            "func describe(api: FakeAPI, completion: @escaping @Sendable ((any Error)?) -> Void) {",
            "\tlet text = \"\"\"",
            "\t    indented",
            "\t\"\"\"",
            "\tapi.save(text) { error in",
            "\t\tcompletion(error)",
            "\t}",
            "}",
        ].joined(separator: "\n")
        let (text, result) = try CallSiteFixtures.rewrite(program)
        #expect(result.functions.first?.outcome.reason == nil, "\(result.functions)")
        // The string's text is what its line has beyond the closing delimiter's indentation.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let at = try #require(lines.firstIndex { $0.hasSuffix("indented") }, "\(text)")
        let margin = String(lines[at + 1].prefix { $0 == " " || $0 == "\t" })
        #expect(lines[at + 1].dropFirst(margin.count) == "\"\"\"", "\(text)")
        #expect(lines[at] == margin + "    indented", "\(text)")
    }

    @Test("A test that expects the call to fail (an empty `catch`): the error is caught, never thrown out of the test")
    func expectedFailure() throws {
        let (text, result) = try CallSiteFixtures.rewrite(
            """
            func testLoadFails(api: FakeAPI) throws {
                let done = XCTestExpectation()
                api.load(id: 1) { result in
                    do {
                        _ = try result.get()
                        XCTFail("expected a failure")
                    } catch {
                    }
                    done.fulfill()
                }
                wait(for: [done], timeout: 1)
            }
            """)
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(
            text == """
                func testLoadFails(api: FakeAPI) async throws {
                    do {
                        _ = try await api.load(id: 1)
                        XCTFail("expected a failure")
                    } catch {}
                }
                """)
    }
}
