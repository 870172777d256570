import CallSiteTraces
import Testing

/// `DispatchGroup` fan-outs rewritten as `async let` (`DispatchGroupRule`), run before and
/// after the rewrite against the same fake API. The calls run concurrently after the
/// rewrite, so the API's events are compared in sorted order, the program's own in order.
@Suite("Call sites: DispatchGroup fan-outs as async let, shown by running it")
struct CallSiteFanOutTraceTests {
    static let programs = callSitePrograms.filter(\.isFanOut)

    @Test("There are fan-out programs")
    func found() {
        #expect(Self.programs.count >= 2)
    }

    @Test("A value and an error: the same results and errors, reported once by the notify body", arguments: programs)
    func sameTraces(_ program: CallSiteProgram) async {
        for outcome in [Outcome.value, .error] {
            let before = await CallSiteTraceTests.trace(program.before, outcome)
            let after = await CallSiteTraceTests.trace(program.after, outcome)
            #expect(program.normalized(before) == program.normalized(after), "\(outcome)")
            #expect(CallSiteTraceTests.programEvents(before).count == 1, "\(outcome): \(before)")
        }
    }

    @Test(
        "Misuse and cancellation: a handler released uncalled, called twice, the awaiting task cancelled",
        arguments: programs)
    func misuse(_ program: CallSiteProgram) async {
        let value = await CallSiteTraceTests.events(program.before, .value)
        let failure = await CallSiteTraceTests.events(program.before, .error)
        // Released uncalled: before, the group is never left and the notify body never runs (a
        // `wait()` blocks for ever: not run); after, each call fails with AbandonedPromiseError,
        // and the notify body (or the code after the wait) reports it.
        if program.beforeNotRun(.dropped) == nil {
            #expect(await CallSiteTraceTests.events(program.before, .dropped).isEmpty)
        }
        #expect(
            await CallSiteTraceTests.events(program.after, .dropped)
                == failure.map { $0.replacingOccurrences(of: "FakeError", with: "AbandonedPromiseError") })
        // Called twice: before, the group is left twice, which crashes (not run); after, once.
        #expect(await CallSiteTraceTests.events(program.after, .twice) == value)
        // The awaiting task cancelled: before, the code runs on; after, the calls fail with
        // CancellationError (a handle is cancelled), and the notify body reports it.
        if program.beforeNotRun(.held) == nil {
            #expect(await CallSiteTraceTests.events(program.before, .held) == value)
        }
        let cancelled = await CallSiteTraceTests.trace(program.after, .held)
        #expect(
            CallSiteTraceTests.programEvents(cancelled)
                == failure.map { $0.replacingOccurrences(of: "FakeError", with: "CancellationError") })
        if cancelled.contains(where: { $0.hasPrefix("api: load(") }) {
            #expect(!cancelled.contains { $0.contains("delivers") })
        }
    }
}
