import MigrateCore
import Testing

/// The function rules' examples through the whole tool: callback pyramids converted to
/// async with a shim, or left alone with the reason and the line.
@Suite("Call sites: functions")
struct CallSiteFunctionTests {
    @Test("Every function rule carries examples")
    func everyRuleHasExamples() {
        for rule in FunctionRuleCatalog.all {
            #expect(!rule.examples.isEmpty, "\(rule) has no example")
            #expect(!rule.summary.isEmpty, "\(rule) has no summary")
        }
    }

    @Test("Each function rule's examples", arguments: FunctionRuleCatalog.examples.map(\.example))
    func example(_ example: CallExample) throws {
        let (text, result) = try CallSiteFixtures.rewrite(example.before, options: example.options)
        let entry = try #require(result.functions.first, "no function found")
        CallSiteFixtures.check(example, text: text, result: result, outcome: entry.outcome, entry.description)
    }

    @Test("The summary: functions converted, shims written, left alone by reason, and the chains")
    func summary() throws {
        let programs = FunctionRuleCatalog.examples.filter { $0.rule == "PropagationRule" }.map(\.example.before)
        let (text, result) = try CallSiteFixtures.rewrite(programs.joined(separator: "\n\n"))
        let summary = result.summary(module: "Examples")
        #expect(
            summary.contains("  4 functions with a completion handler: 2 converted, 2 shims written, 2 left alone\n"))
        #expect(summary.contains("    1  calls a function left alone:\n        Program.swift:"))
        #expect(summary.contains("    1  a path never calls the completion:\n        Program.swift:43\n"))
        #expect(summary.contains("    loadText(api:id:completion:) <- measureLoaded(api:id:completion:)\n"))
        // The async caller awaits the converted function; the synchronous one keeps the shim.
        #expect(text.contains("let count = try await measureLoaded(api: api, id: 4)"))
        #expect(text.contains("    saveAll(api: api) { error in"))
        #expect(result.report().contains("left alone  Program.swift:"))
    }

    /// A `@MainActor` function whose handler (not `@Sendable`) ran on the API's callback queue,
    /// as a Swift 5 mode module allows: the shim's main-actor task moves it, and the report says
    /// so; a handler delivered on the main actor (`show(id:)`) gets no such note.
    @Test("A main-actor shim whose handler ran on the API's callback queue: noted")
    func mainActorShimMovesTheHandler() throws {
        let function = """
            @MainActor func loadTitle(api: FakeAPI, id: Int, completion: @escaping (String?, (any Error)?) -> Void) {
                api.fetch(id: id) { text, error in
                    completion(text, error)
                }
            }
            """
        let moved =
            "the handler now runs on the main actor (before: the callback queue of `FakeAPI.fetch(id:completion:)`)"
        let (_, result) = try CallSiteFixtures.rewrite(function)
        guard case .converted(let notes) = result.functions.first?.outcome else {
            Issue.record("not converted: \(result.functions)")
            return
        }
        #expect(notes.contains(moved), "\(notes)")
        let (_, onMain) = try CallSiteFixtures.rewrite(
            """
            @MainActor func showTitle(api: FakeAPI, id: Int, completion: @escaping (Result<String, any Error>) -> Void) {
                api.show(id: id) { result in
                    completion(result)
                }
            }
            """)
        guard case .converted(let mainNotes) = onMain.functions.first?.outcome else {
            Issue.record("not converted: \(onMain.functions)")
            return
        }
        #expect(!mainNotes.contains { $0.contains("now runs on the main actor") }, "\(mainNotes)")
    }

    @Test("Left alone, with the line: an empty body, a handler kept in a variable, a call in a loop")
    func leftAlone() throws {
        let program = """
            func empty(completion: @escaping @Sendable ((any Error)?) -> Void) {
            }

            func stored(api: FakeAPI, completion: @escaping @Sendable ((any Error)?) -> Void) {
                let keep = completion
                api.save("a") { error in keep(error) }
            }

            func looped(api: FakeAPI, completion: @escaping @Sendable ((any Error)?) -> Void) {
                for text in ["a"] {
                    api.save(text) { error in completion(error) }
                }
            }
            """
        let (_, result) = try CallSiteFixtures.rewrite(program)
        #expect(result.files.isEmpty)
        #expect(result.functions.map(\.line) == [1, 5, 10])
        #expect(
            result.functions.map(\.outcome) == [
                .leftAlone(.completionNeverCalled, "the path ends without calling `completion`"),
                .leftAlone(.completionEscapes, "`completion` is used in `let keep = completion`"),
                .leftAlone(.completionEscapes, "`completion` is used in `for text in [\"a\"] {`"),
            ])
    }

    static let store = """
        func run(api: FakeAPI, trace: Trace) async {
            store(api: api) { error in
                trace.delivered("stored \\(error == nil)")
            }
        }

        func store(api: FakeAPI, completion: @escaping @Sendable ((any Error)?) -> Void) {
            api.save("a") { error in
                completion(error)
            }
        }
        """

    @Test("An async call of a converted function's shim, left alone: the report says that the compiler will warn")
    func shimCallWarns() throws {
        let (text, result) = try CallSiteFixtures.rewrite(Self.store)
        #expect(text.contains("func store(api: FakeAPI) async throws {"))
        let call = try #require(result.entries.first { $0.line == 2 })
        #expect(call.warnsAsShimCall, "\(call)")
        #expect(
            result.report().contains(
                "\n  warning: Program.swift:2  this async call of a shim will warn: \"consider using asynchronous"))
        #expect(
            result.summary().contains(
                "  1  async call of a shim left alone, each warns (\"consider using asynchronous alternative function\": "
                    + "fails -warnings-as-errors):\n      Program.swift:2\n"))
        // The same call of a function that is not converted gets no warning.
        let kept = try CallSiteFixtures.rewrite(
            Self.store.replacingOccurrences(of: "completion(error)", with: "_ = error"))
        #expect(!kept.result.report().contains("warning:"))
    }

    @Test("A function whose async form the generator wrote earlier: listed, with what to do")
    func generatedFormSaysWhy() throws {
        let program = SourceInput(
            path: "Sources/App/Store.swift",
            text: """
                final class Store: Sendable {
                    let api: FakeAPI

                    init(api: FakeAPI) {
                        self.api = api
                    }

                    func store(completion: @escaping @Sendable ((any Error)?) -> Void) {
                        api.save("a") { error in
                            completion(error)
                        }
                    }
                }
                """)
        let form = SourceInput(
            path: "Sources/App/Store+Async.swift",
            text: """
                extension Store {
                    /// Async form of `store(completion:)`.
                    func store() async throws {
                    }
                }
                """)
        let result = CallMigrator().migrate([program, form], context: try CallSiteFixtures.api())
        #expect(result.files.isEmpty)
        #expect(result.functions.map(\.line) == [8])
        #expect(
            result.functions.map(\.outcome) == [
                .leftAlone(
                    .generatedForm,
                    "`Sources/App/Store+Async.swift` holds its async form, so it is not converted: run `calls` before "
                        + "the generator on the module's own functions, or delete that form and run `calls` again")
            ])
    }

    @Test("A receiver whose type is not written is not taken for a type of the module: left alone, with the line")
    func unknownReceiver() throws {
        let program = """
            final class Store: Sendable {
                let api: FakeAPI

                init(api: FakeAPI) {
                    self.api = api
                }

                func put(_ text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    api.save(text) { error in
                        completion(error)
                    }
                }
            }

            func archive(completion: @escaping @Sendable ((any Error)?) -> Void) {
                let other = makeStore()
                other.put("a") { error in
                    completion(error)
                }
            }
            """
        let (_, result) = try CallSiteFixtures.rewrite(program)
        #expect(result.functions.map(\.function) == ["Store.put(_:completion:)", "archive(completion:)"])
        #expect(result.functions.first.map { if case .converted = $0.outcome { true } else { false } } == true)
        #expect(result.functions.last?.line == 17)
        #expect(
            result.functions.last?.outcome
                == .leftAlone(
                    .receiverUnknown,
                    "`put`: the receiver's type is not written, and only a type of the module declares it"))
    }

    @Test("A file indented with tabs: the converted function is too; blank lines before a do and a call kept")
    func tabsAndBlankLines() throws {
        let program = [
            "final class Loader: Sendable {",
            "\tlet api: FakeAPI",
            "",
            "\tinit(api: FakeAPI) {",
            "\t\tself.api = api",
            "\t}",
            "",
            "\tfunc text(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {",
            "\t\tlet next: Int",
            "",
            "\t\tdo {",
            "\t\t\tnext = try Self.checked(id)",
            "\t\t} catch {",
            "\t\t\tcompletion(.failure(error))",
            "\t\t\treturn",
            "\t\t}",
            "",
            "\t\tapi.load(id: next, completion: completion)",
            "\t}",
            "",
            "\tstatic func checked(_ id: Int) throws -> Int {",
            "\t\tid",
            "\t}",
            "}",
        ].joined(separator: "\n")
        let (text, result) = try CallSiteFixtures.rewrite(program)
        #expect(result.functions.first?.outcome.reason == nil, "\(result.functions)")
        let expected = [
            "\tfunc text(id: Int) async throws -> String {",
            "\t\tlet next: Int",
            "",
            "\t\tdo {",
            "\t\t\tnext = try Self.checked(id)",
            "\t\t} catch {",
            "\t\t\tthrow error",
            "\t\t}",
            "",
            "\t\treturn try await api.load(id: next)",
            "\t}",
            "",
            "\t/// Completion-handler form of `text(id:)`, for callers not migrated yet.",
            "\t@available(*, renamed: \"text(id:)\")",
            "\tfunc text(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {",
            "\t\tFuture<String> { try await self.text(id: id) }.deliver(on: .inline, to: completion)",
            "\t}",
        ].joined(separator: "\n")
        #expect(text.contains(expected), "\(text)")
    }
}
