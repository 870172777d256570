import CallSiteTraces
import MigrateCore
import Testing

/// Swift Testing tests that confirm a handler with `confirmation { }`: the rewrite as a test
/// suite writes them, and the rule's programs run before and after it.
@Suite("Call sites: Swift Testing confirmations")
struct CallSiteConfirmationTests {
    @Test("An @Test function with #expect and Issue.record in the handler: the call awaited, the assertions in order")
    func swiftTestingCase() throws {
        let (text, result) = try CallSiteFixtures.rewrite(
            """
            import Testing

            @Suite struct LoaderTests {
                let api = FakeAPI(outcome: .value, trace: Trace())

                @Test func load() async throws {
                    try await confirmation("loaded") { confirmed in
                        // The second text.
                        api.load(id: 2) { result in
                            switch result {
                            case .success(let text):
                                #expect(text == "v")
                                #expect(!text.isEmpty)
                            case .failure(let error):
                                Issue.record(error)
                            }
                            confirmed()
                        }
                    }
                }
            }
            """)
        #expect(result.convertedCount == 1, "\(result.entries)")
        #expect(
            text == """
                import Testing

                @Suite struct LoaderTests {
                    let api = FakeAPI(outcome: .value, trace: Trace())

                    @Test func load() async throws {
                        // The second text.
                        do {
                            let text = try await api.load(id: 2)
                            #expect(text == "v")
                            #expect(!text.isEmpty)
                        } catch {
                            Issue.record(error)
                        }
                    }
                }
                """)
        guard case .converted(let notes) = result.entries.first?.outcome else { return }
        #expect(notes.contains { $0.contains("confirmed 0 times") })
    }

    @Test("A continuation in an @Test function, a named argument, `$0`: left alone with the reason")
    func leftAlone() throws {
        let programs = [
            (
                "the handler does other things than resume `continuation`",
                """
                @Test func ping(api: FakeAPI) async {
                    await withCheckedContinuation { continuation in
                        api.ping {
                            continuation.resume()
                            print("pinged")
                        }
                    }
                }
                """
            ),
            (
                "arguments this tool does not read",
                """
                func ping(api: FakeAPI) async {
                    await confirmation(sourceLocation: here) { confirmed in
                        api.ping {
                            confirmed()
                        }
                    }
                }
                """
            ),
            (
                "not named",
                """
                func ping(api: FakeAPI) async {
                    await confirmation {
                        let confirmed = $0
                        api.ping {
                            confirmed()
                        }
                    }
                }
                """
            ),
        ]
        for (detail, program) in programs {
            let (_, result) = try CallSiteFixtures.rewrite(program)
            #expect(result.files.isEmpty)
            // A continuation's form is `ContinuationCallRule`'s to judge, in a test or not.
            let reason: LeaveReason = detail.hasPrefix("the handler") ? .continuation : .expectation
            guard case .leftAlone(reason, let actual) = result.entries.first?.outcome else {
                Issue.record("not left alone: \(result.entries)")
                continue
            }
            #expect(actual.contains(detail), "\(actual)")
        }
    }

    static let programs = callSitePrograms.filter(\.isConfirmation)

    /// The events of the program's run, and those of the test's stand-in (`test: …`) apart.
    static func run(_ program: @escaping @Sendable (FakeAPI, Trace) async -> Void, _ outcome: CallSiteTraces.Outcome)
        async
        -> (events: [String], issues: [String])
    {
        let all = await CallSiteTraceTests.trace(program, outcome)
        return (all.filter { !$0.hasPrefix("test:") }, all.filter { $0.hasPrefix("test:") })
    }

    @Test("Every confirmation example runs in the harness")
    func programsRun() {
        #expect(Self.programs.count == 2)
    }

    @Test(
        "A handler called later: before, confirmed 0 times and its code after the test; after, the same code awaited",
        arguments: programs)
    func lateHandler(_ program: CallSiteProgram) async {
        for outcome in [CallSiteTraces.Outcome.value, .error] {
            let before = await Self.run(program.before, outcome)
            let after = await Self.run(program.after, outcome)
            // Before: the confirmation returned before the API called back: the test failed.
            #expect(before.issues == ["test: confirmed 0 times, expected 1 [other]"], "\(outcome)")
            // The same events, in the same order (the handler's code ran after the test ended).
            #expect(before.events == after.events, "\(outcome)")
            #expect(after.issues.isEmpty)
            #expect(CallSiteTraceTests.programEvents(after.events).count == 1)
        }
    }

    @Test("Misuse and cancellation: what the async forms document", arguments: programs)
    func misuse(_ program: CallSiteProgram) async {
        let failing = await Self.run(program.before, .error)
        let failure = CallSiteTraceTests.programEvents(failing.events)
        let hasFailureCode = failure.contains { $0.hasPrefix("failed") }
        let value = CallSiteTraceTests.programEvents(await Self.run(program.before, .value).events)
        // A handler released uncalled: before, the confirmation failed and nothing ran;
        // after, the failure code runs with AbandonedPromiseError.
        let dropped = await Self.run(program.before, .dropped)
        #expect(CallSiteTraceTests.programEvents(dropped.events).isEmpty)
        #expect(dropped.issues.count == 1)
        let abandoned = await Self.run(program.after, .dropped)
        #expect(
            CallSiteTraceTests.programEvents(abandoned.events)
                == (hasFailureCode
                    ? failure.map { $0.replacingOccurrences(of: "FakeError", with: "AbandonedPromiseError") } : []))
        #expect(abandoned.issues.isEmpty)
        // Twice: before, the code ran twice (after the test); after, once.
        #expect(CallSiteTraceTests.programEvents(await Self.run(program.before, .twice).events) == value + value)
        #expect(CallSiteTraceTests.programEvents(await Self.run(program.after, .twice).events) == value)
        // Cancelled: before, the code ran on; after, the failure code runs with CancellationError.
        #expect(CallSiteTraceTests.programEvents(await Self.run(program.before, .held).events) == value)
        #expect(
            CallSiteTraceTests.programEvents(await Self.run(program.after, .held).events)
                == (hasFailureCode
                    ? failure.map { $0.replacingOccurrences(of: "FakeError", with: "CancellationError") } : []))
    }
}

/// Programs that waited for a handler with a continuation (`ContinuationCallRule`): the same
/// trace for a value and an error; the misuse the continuation could not survive, after.
@Suite("Call sites: continuations resumed by the handler")
struct CallSiteContinuationTests {
    static let programs = callSitePrograms.filter(\.isContinuation)

    @Test("Every continuation example runs in the harness")
    func programsRun() {
        #expect(Self.programs.count == 8)
        #expect(Self.programs.filter(\.catchesNewErrors).count == 1)
        #expect(Self.programs.filter(\.catchesCancellationFirst).count == 1)
        #expect(Self.programs.filter(\.isBridge).count == 2)
    }

    @Test(
        "A value and an error: the same trace; dropped, twice, cancelled: what the async forms do", arguments: programs)
    func traces(_ program: CallSiteProgram) async {
        for outcome in [CallSiteTraces.Outcome.value, .error] {
            let before = await CallSiteTraceTests.trace(program.before, outcome)
            #expect(before == (await CallSiteTraceTests.trace(program.after, outcome)), "\(outcome)")
            #expect(CallSiteTraceTests.programEvents(before).count == 1)
        }
        // Before, a handler never called suspends the task for ever, a second call crashes and the
        // cancelled task waits for the handler (not run); after:
        let failing = await CallSiteTraceTests.trace(program.before, .error)
        let failure = CallSiteTraceTests.programEvents(failing)
        let value = CallSiteTraceTests.programEvents(await CallSiteTraceTests.trace(program.before, .value))
        // (A handler that receives no error has no failure code: the error leaves the program.)
        let hasFailureCode = failing.contains { $0.hasPrefix("api:") && $0.contains(" fails ") }
        for (outcome, error) in [
            (CallSiteTraces.Outcome.dropped, "AbandonedPromiseError"), (.held, "CancellationError"),
        ] {
            // (A continuation that threw nothing, inside a `do`: its `catch` now receives the error;
            // `catch is CancellationError` first, when there is one.)
            let caught =
                program.catchesCancellationFirst && error == "CancellationError"
                ? ["cancelled [other]"]
                : program.catchesNewErrors || program.catchesCancellationFirst ? ["failed \(error) [other]"] : []
            #expect(
                CallSiteTraceTests.programEvents(await CallSiteTraceTests.trace(program.after, outcome))
                    == (hasFailureCode ? failure.map { $0.replacingOccurrences(of: "FakeError", with: error) } : caught)
            )
            #expect(program.beforeNotRun(outcome) != nil || (program.storesInBox && outcome == .held))
        }
        #expect(CallSiteTraceTests.programEvents(await CallSiteTraceTests.trace(program.after, .twice)) == value)
        #expect(program.beforeNotRun(.twice) != nil)
        guard program.storesInBox else { return }
        // A bridge passed the cancellation on to the handle: before and after, the operation is
        // cancelled and its handler's `CancellationError` ends the wait, in the same trace.
        let before = await CallSiteTraceTests.trace(program.before, .held, stores: true)
        #expect(before == (await CallSiteTraceTests.trace(program.after, .held)))
        #expect(before.contains { $0.hasPrefix("api: request(") && $0.contains(" cancelled") })
        #expect(!before.contains { $0.contains(" delivers") })
    }
}
