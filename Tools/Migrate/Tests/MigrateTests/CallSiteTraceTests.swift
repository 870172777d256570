import CallSiteTraces
import Foundation
import Testing

import enum MigrateCore.FunctionRuleCatalog

/// Behaviour kept, shown by running it: every rewritten example runs before and after the
/// rewrite against the same fake API, through the same scripted outcomes, and the traces
/// (events in order, each with the thread it ran on) are compared.
@Suite("Call sites: behaviour kept, shown by running it")
struct CallSiteTraceTests {
    /// Runs a program against a fake API scripted with `outcome`, and returns the trace once
    /// everything it started has run: the API's deliveries, then the main queue's hops.
    /// `.held` runs it in a task that is cancelled once the call is made, and lets the API
    /// deliver once the task has ended (a program that awaits the call ends when the
    /// cancellation reaches it; a program that does not, at once). `.twice` calls the
    /// handler again once everything the first call started has run.
    /// `shim`: a caller of a shim, whose handler the shim calls once from a task of its own:
    /// the trace ends once it has run. `waitsForCall`: a caller of a shim that calls no
    /// handler with `outcome`: the trace ends once the shim's task has called the API.
    /// `stores`: a bridge's program that stores the call's handle in a `FakeHandleBox`: `.held`
    /// cancels it once the handle is stored.
    static func trace(
        _ program: @escaping @Sendable (FakeAPI, Trace) async -> Void, _ outcome: Outcome, shim: Bool = false,
        waitsForCall: Bool = false, stores: Bool = false
    ) async -> [String] {
        let trace = Trace()
        let api = FakeAPI(outcome: outcome, trace: trace)
        if outcome == .held {
            let task = Task { await FakeTesting.$api.withValue(api) { await program(api, trace) } }
            if stores { await api.stored() } else { await api.called() }
            task.cancel()
            await task.value
            api.release()
        } else {
            await FakeTesting.$api.withValue(api) { await program(api, trace) }
        }
        // A shim that delivers nothing here calls the API from its own task: wait for that call.
        if waitsForCall { await api.called() }
        await api.idle()
        // A shim's delivery (from its own task) before the second call of `.twice`.
        if shim { await trace.deliveries(1) }
        await MainActor.run {}  // the main queue is FIFO: the hops the handlers made have run
        api.release()  // `.twice`: the second call, once the first has been handled
        await api.idle()
        await MainActor.run {}
        // Once the test has failed (``XCTFail(_:)``, or an error thrown out of it), what it
        // does next does not change its result.
        let all = trace.all
        return all.firstIndex { $0.hasPrefix("test failed") }.map { Array(all[...$0]) } ?? all
    }

    /// The events `program` logs after its call when the API is scripted with `outcome`.
    static func events(_ program: @escaping @Sendable (FakeAPI, Trace) async -> Void, _ outcome: Outcome) async
        -> [String]
    {
        programEvents(await trace(program, outcome))
    }

    /// The events the program logged after the call (not the API's): the handler's code.
    static func programEvents(_ events: [String]) -> [String] {
        events.drop { !$0.hasPrefix("api:") }.filter { !$0.hasPrefix("api:") && !$0.hasPrefix("test failed") }
    }

    /// The programs of one-shot handlers (multi-shot ones and fan-outs: ``CallSiteStreamTraceTests``,
    /// ``CallSiteFanOutTraceTests``; Swift Testing confirmations: ``CallSiteConfirmationTests``).
    static let oneShot = callSitePrograms.filter {
        !$0.isMultiShot && !$0.isFanOut && !$0.isConfirmation && !$0.isContinuation
    }

    @Test("A value and an error: the same trace before and after", arguments: oneShot)
    func sameTraces(_ program: CallSiteProgram) async {
        for outcome in [Outcome.value, .error] {
            let before = await Self.trace(program.before, outcome)
            let after = await Self.trace(
                program.after, outcome, shim: program.waitsForShim(outcome), waitsForCall: program.waitsForCall(outcome)
            )
            #expect(before == after, "\(outcome)")
            // A call site's handler logs once; a converted function and its caller may log more.
            // (Or, on a failure, only fails the test; a pyramid's levels log one each.)
            let calls = before.filter { $0.hasPrefix("api:") && $0.contains(" called") }.count
            if !Self.isFunction(program), calls == 1 {
                let events = Self.programEvents(before)
                let onlyFails = events.isEmpty && before.last?.hasPrefix("test failed") == true
                #expect(events.count == 1 || onlyFails, "\(outcome): \(before)")
            }
        }
    }

    /// Runs go on at the same time: `XCTFail` in one ends its own waits only, so that a
    /// program checking after its wait what its handler set never checks before its handler ran.
    @Test("XCTFail ends the waits of its own run, not those of another running at the same time")
    func failEndsItsOwnRun() {
        let (mine, other) = (FakeAPI(outcome: .value, trace: Trace()), FakeAPI(outcome: .error, trace: Trace()))
        let waiting = FakeTesting.$api.withValue(mine) { expectation(description: "mine") }
        let failing = FakeTesting.$api.withValue(other) { expectation(description: "other") }
        FakeTesting.$api.withValue(other) { XCTFail("from the other run") }
        #expect(!failing.isPending)
        #expect(waiting.isPending)
        waiting.fulfill()
        wait(for: [waiting], timeout: 1)
        #expect(!waiting.isPending)
    }

    @Test(
        "Misuse and cancellation: what the async forms document, where the before program hung or ran on",
        arguments: oneShot)
    func misuse(_ program: CallSiteProgram) async {
        guard !Self.isFunction(program) else { return }  // CallSiteFunctionTraceTests
        let value = Self.programEvents(await Self.trace(program.before, .value))
        let failing = await Self.trace(program.before, .error)
        let failure = Self.programEvents(failing)
        // A handler released uncalled: before, nothing ever runs (a caller waiting on it hangs);
        // after, the failure code runs with AbandonedPromiseError.
        if !Self.waitsForExpectation(program, .dropped) {
            #expect(Self.programEvents(await Self.trace(program.before, .dropped)).isEmpty)
        }
        // (A handler that receives no error has no failure code: nothing runs, as before.)
        let hasFailureCode = failing.contains { $0.hasPrefix("api:") && $0.contains(" fails ") }
        let abandoned = Self.programEvents(await Self.trace(program.after, .dropped))
        #expect(
            abandoned
                == (hasFailureCode
                    ? failure.map { $0.replacingOccurrences(of: "FakeError", with: "AbandonedPromiseError") } : []))
        // A handler called twice: before, its code runs twice; after, once. (A test that checks
        // after its wait what the handler set logs in the check, which runs once before too.)
        let checksAfterWait = program.name.hasPrefix("ExpectationTestRule") && program.name.contains("after the wait")
        // (A pyramid calls the next level from each call of its handler: more than twice.)
        let calls = await Self.trace(program.before, .value).filter { $0.hasPrefix("api:") && $0.contains(" called") }
        let twice = Self.programEvents(await Self.trace(program.before, .twice))
        if calls.count == 1 { #expect(twice == (checksAfterWait ? value : value + value)) }
        #expect(Self.programEvents(await Self.trace(program.after, .twice)) == value)
        // A task of the program's own (its name says `Task`) is not cancelled with the task
        // that awaits it, before or after: cancelling the runner's task does not reach it.
        guard !program.name.contains("Task") else { return }
        // The awaiting task cancelled: before, the code runs on as if nothing happened; after,
        // the failure code runs with CancellationError, and an operation with a handle is cancelled.
        if !Self.waitsForExpectation(program, .held) {
            #expect(Self.programEvents(await Self.trace(program.before, .held)) == value)
        }
        let cancelled = await Self.trace(program.after, .held)
        #expect(
            Self.programEvents(cancelled)
                == (hasFailureCode
                    ? failure.map { $0.replacingOccurrences(of: "FakeError", with: "CancellationError") } : []))
        if program.name.contains("load(") || cancelled.contains(where: { $0.hasPrefix("api: load(") }) {
            #expect(cancelled.contains { $0.hasPrefix("api: load(") && $0.contains("cancelled") })
            #expect(!cancelled.contains { $0.hasPrefix("api: load(") && $0.contains("delivers") })
        }
    }

    /// A function rule's program: a converted function, its shim, and its callers.
    static func isFunction(_ program: CallSiteProgram) -> Bool {
        FunctionRuleCatalog.all.contains { program.name.hasPrefix("\($0): ") }
    }

    /// An XCTest-style program (``ExpectationTestRule``, ``TestFailureRule``): before its rewrite, a handler
    /// released uncalled or held makes XCTest's `wait` time out and fail the test; the
    /// stand-in `wait` would wait for ever, so those runs are not made (see `FakeExpectation`).
    static func waitsForExpectation(_ program: CallSiteProgram, _ outcome: Outcome) -> Bool {
        ["ExpectationTestRule", "TestFailureRule"].contains { program.name.hasPrefix($0) }
            && (outcome == .dropped || outcome == .held)
    }

    @Test("Every trace, checked in (Tests/Golden/CallSiteTraces.txt)")
    func traces() async throws {
        var text = ""
        for program in callSitePrograms {
            text += "\(program.name)\n"
            for outcome in Outcome.allCases
            where (outcome != .held || !program.name.contains("Task")) && program.isRecorded(outcome) {
                let after = program.normalized(
                    await Self.trace(
                        program.after, outcome, shim: program.waitsForShim(outcome),
                        waitsForCall: program.waitsForCall(outcome)))
                text += "  \(outcome.rawValue):\n"
                if Self.waitsForExpectation(program, outcome) || program.beforeNotRun(outcome) != nil {
                    let reason = program.beforeNotRun(outcome) ?? "XCTest's wait times out: the test fails"
                    text += "    before  (\(reason))\n"
                    text += after.map { "    after   \($0)\n" }.joined()
                    continue
                }
                let before = program.normalized(await Self.trace(program.before, outcome, stores: program.storesInBox))
                if before == after {
                    text += before.map { "    same    \($0)\n" }.joined()
                } else {
                    text += before.map { "    before  \($0)\n" }.joined()
                    text += after.map { "    after   \($0)\n" }.joined()
                }
            }
        }
        try Golden.check(text, against: Paths.golden.appendingPathComponent("CallSiteTraces.txt"))
    }
}
