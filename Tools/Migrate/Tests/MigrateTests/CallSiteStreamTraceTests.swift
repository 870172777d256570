import CallSiteTraces
import Testing

/// Multi-shot handlers rewritten as `for try await` loops (`StreamCallRule`), run before
/// and after the rewrite against the same fake API (`FakeAPI.events(id:onEvent:completion:)`).
@Suite("Call sites: multi-shot handlers as loops, shown by running it")
struct CallSiteStreamTraceTests {
    static let programs = callSitePrograms.filter(\.isMultiShot)

    @Test("There are multi-shot programs")
    func found() {
        #expect(Self.programs.count >= 2)
    }

    @Test("Values in order, the terminal error, the end: the same trace before and after", arguments: programs)
    func sameTraces(_ program: CallSiteProgram) async {
        for outcome in [Outcome.value, .error] {
            let before = await CallSiteTraceTests.trace(program.before, outcome)
            let after = await CallSiteTraceTests.trace(program.after, outcome)
            #expect(before == after, "\(outcome)")
        }
        // The error ends the values: the failure code runs last, after the values that came before it.
        #expect(await CallSiteTraceTests.events(program.before, .error).last?.hasPrefix("failed FakeError") ?? false)
        #expect(await CallSiteTraceTests.events(program.before, .value).last?.hasPrefix("done") ?? false)
    }

    @Test(
        "Misuse and cancellation: the handlers released uncalled, called twice, the awaiting task cancelled",
        arguments: programs)
    func misuse(_ program: CallSiteProgram) async {
        let value = await CallSiteTraceTests.events(program.before, .value)
        // Released uncalled: before, nothing ever runs; after, the failure code runs with AbandonedPromiseError.
        #expect(await CallSiteTraceTests.events(program.before, .dropped).isEmpty)
        let abandoned = await CallSiteTraceTests.events(program.after, .dropped)
        #expect(abandoned.count == 1 && abandoned[0].hasPrefix("failed AbandonedPromiseError"), "\(abandoned)")
        // Called twice (the values and the completion again): before, the code runs twice; after, once.
        #expect(await CallSiteTraceTests.events(program.before, .twice) == value + value)
        #expect(await CallSiteTraceTests.events(program.after, .twice) == value)
        // The awaiting task cancelled: before, the code runs on as if nothing happened; after, the
        // operation is cancelled (it delivers nothing) and the failure code runs with CancellationError.
        #expect(await CallSiteTraceTests.events(program.before, .held) == value)
        let cancelled = await CallSiteTraceTests.trace(program.after, .held)
        let ran = CallSiteTraceTests.programEvents(cancelled)
        #expect(ran.count == 1 && ran[0].hasPrefix("failed CancellationError"), "\(cancelled)")
        #expect(cancelled.contains { $0.hasPrefix("api: events(") && $0.contains("cancelled") })
        #expect(!cancelled.contains { $0.contains("delivers") })
    }
}
