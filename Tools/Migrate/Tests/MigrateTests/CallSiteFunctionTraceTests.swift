import CallSiteTraces
import Testing

/// Behaviour kept by converted callback pyramids, shown by running them: the value and the
/// error give the same traces before and after (``CallSiteTraceTests``); misuse and
/// cancellation do what the async forms document, through the shim for a caller in
/// synchronous code and through the await for one in async code.
@Suite("Call sites: converted functions, run")
struct CallSiteFunctionTraceTests {
    static var programs: [CallSiteProgram] { callSitePrograms.filter(CallSiteTraceTests.isFunction) }

    @Test("A handler released uncalled: before, the caller never hears back; after, it gets the failure")
    func dropped() async {
        for program in Self.programs {
            let before = CallSiteTraceTests.programEvents(await CallSiteTraceTests.trace(program.before, .dropped))
            let after = CallSiteTraceTests.programEvents(
                await CallSiteTraceTests.trace(
                    program.after, .dropped, shim: program.waitsForShim(.dropped),
                    waitsForCall: program.waitsForCall(.dropped)))
            let failure = CallSiteTraceTests.programEvents(await CallSiteTraceTests.trace(program.before, .error))
            #expect(before.isEmpty, "\(program.name): \(before)")
            // A handler that takes values only is not called with the failure: as before.
            if program.deliversValuesOnly {
                #expect(after.isEmpty, "\(program.name): \(after)")
                continue
            }
            // The failure path runs: each event names the abandoned promise, or is the error's own.
            #expect(!after.isEmpty, "\(program.name)")
            #expect(
                after.allSatisfy {
                    $0.contains("AbandonedPromiseError") || $0.contains("released without") || failure.contains($0)
                }, "\(program.name): \(after)")
        }
    }

    @Test("A handler called twice: after, the caller's code runs once, as for a value")
    func twice() async {
        for program in Self.programs {
            let value = CallSiteTraceTests.programEvents(await CallSiteTraceTests.trace(program.before, .value))
            let after = CallSiteTraceTests.programEvents(
                await CallSiteTraceTests.trace(
                    program.after, .twice, shim: program.waitsForShim(.twice),
                    waitsForCall: program.waitsForCall(.twice)))
            #expect(after == value, "\(program.name)")
        }
    }

    /// An awaiting caller gets `CancellationError` and the load is cancelled; a caller of
    /// the shim is not cancelled with the runner's task, before or after.
    @Test("The caller's task cancelled")
    func cancelled() async {
        for program in Self.programs {
            let before = await CallSiteTraceTests.trace(program.before, .held)
            let after = await CallSiteTraceTests.trace(
                program.after, .held, shim: program.waitsForShim(.held), waitsForCall: program.waitsForCall(.held))
            if after.contains(where: { $0.contains("CancellationError") }) {
                #expect(!after.contains { $0.contains("delivers") }, "\(program.name): \(after)")
                if after.contains(where: { $0.hasPrefix("api: load(") }) {
                    #expect(after.contains { $0.hasPrefix("api: load(") && $0.contains("cancelled") })
                }
            } else {
                #expect(before == after, "\(program.name)")
            }
        }
    }
}
