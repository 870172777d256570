import Testing

@testable import Reactive

/// Every transition of ``TimeOperatorStateMachine``, without threads or time: a timer is a
/// label (`"t0"` for the timer the machine numbered 0) that the test says was started
/// and fired; each action is checked as a short string.
@Suite struct TimeOperatorStateMachineTests {
    typealias Machine = TimeOperatorStateMachine<Int, String>

    /// `action` as a short string: `send 1`, `start 0, cancel t1, release 1`,
    /// `end sending 2, cancel t0`, ...
    static func describe(_ action: Machine.Action) -> String {
        func cancel(_ timer: String?) -> String { timer.map { ", cancel \($0)" } ?? "" }
        func release(_ value: Int?) -> String { value.map { ", release \($0)" } ?? "" }
        return switch action {
        case .nothing: "nothing"
        case .release(let value): "release \(value)"
        case .send(let value): "send \(value)"
        case .startTimer(let id, let superseded, let replaced): "start \(id)" + cancel(superseded) + release(replaced)
        case .sendThenStartTimer(let value, let id): "send \(value), start \(id)"
        case .end(let value, let running, let dropped):
            "end" + (value.map { " sending \($0)" } ?? "") + cancel(running) + release(dropped)
        }
    }

    /// Feeds `value` to `machine` and reports the timer the action starts as started
    /// (labelled `t<id>`), as the storage does.
    static func arrive(_ value: Int, at machine: inout Machine) -> String {
        let action = machine.valueArrived(value)
        start(action, in: &machine)
        return describe(action)
    }

    /// Reports the timer `action` starts, if any, as started.
    static func start(_ action: Machine.Action, in machine: inout Machine) {
        switch action {
        case .startTimer(let id, _, _), .sendThenStartTimer(_, let id):
            #expect(machine.timerStarted("t\(id)", id: id) == nil)
        case .nothing, .release, .send, .end: break
        }
    }

    /// Fires timer `id` and reports the timer the action starts, if any, as started.
    static func fire(_ id: Int, at machine: inout Machine) -> String {
        let action = machine.timerFired(id)
        start(action, in: &machine)
        return describe(action)
    }

    // MARK: debounce

    @Test func debounceHoldsEachValueAndRestartsTheTimerCancellingTheRunningOne() {
        var machine = Machine(rule: .debounce)
        #expect(Self.arrive(1, at: &machine) == "start 0")
        #expect(Self.arrive(2, at: &machine) == "start 1, cancel t0, release 1")  // released after unlocking
        #expect(Self.arrive(3, at: &machine) == "start 2, cancel t1, release 2")
        #expect(machine.held == 3 && machine.runningTimerID == 2 && machine.runningTimer == "t2")
    }

    @Test func debounceSendsTheHeldValueWhenTheLatestTimerFires() {
        var machine = Machine(rule: .debounce)
        _ = Self.arrive(1, at: &machine)
        _ = Self.arrive(2, at: &machine)
        #expect(Self.fire(0, at: &machine) == "nothing")  // replaced: a late fire counts for nothing
        #expect(machine.held == 2)
        #expect(Self.fire(1, at: &machine) == "send 2")
        #expect(machine.held == nil && machine.runningTimerID == nil && machine.runningTimer == nil)
        #expect(Self.fire(1, at: &machine) == "nothing")  // fires once
        #expect(Self.arrive(3, at: &machine) == "start 2")  // a new wait, nothing to cancel
    }

    @Test func aTimerStartedAfterItWasReplacedIsHandedBackToCancel() {
        var machine = Machine(rule: .debounce)
        _ = machine.valueArrived(1)  // timer 0, not started yet
        #expect(Self.describe(machine.valueArrived(2)) == "start 1, release 1")  // nothing started to cancel
        #expect(machine.timerStarted("t0", id: 0) == "t0")  // started late: cancel it
        #expect(machine.timerStarted("t1", id: 1) == nil)
        #expect(machine.runningTimer == "t1")
    }

    @Test func aTimerThatFiresBeforeItIsHandedOverStillCounts() {
        var machine = Machine(rule: .debounce)
        _ = machine.valueArrived(1)
        #expect(Self.describe(machine.timerFired(0)) == "send 1")  // a zero interval
        #expect(machine.timerStarted("t0", id: 0) == "t0")  // already done: cancelling it does nothing
        #expect(machine.runningTimer == nil)
    }

    @Test func debounceCompletionSendsTheHeldValueFirstAndCancelsTheTimer() {
        var machine = Machine(rule: .debounce)
        _ = Self.arrive(1, at: &machine)
        _ = Self.arrive(2, at: &machine)
        #expect(Self.describe(machine.sourceCompleted()) == "end sending 2, cancel t1")
        #expect(machine.hasEnded && machine.held == nil && machine.runningTimerID == nil && machine.runningTimer == nil)
    }

    @Test func completionWithNothingHeldOnlyEnds() {
        var machine = Machine(rule: .debounce)
        #expect(Self.describe(machine.sourceCompleted()) == "end")
        var fired = Machine(rule: .debounce)
        _ = Self.arrive(1, at: &fired)
        _ = Self.fire(0, at: &fired)
        #expect(Self.describe(fired.sourceCompleted()) == "end")
    }

    @Test(arguments: [Machine.Rule.debounce, .throttle(latest: true), .throttle(latest: false)])
    func failureAndStopDropTheHeldValueAndCancelTheTimer(rule: Machine.Rule) {
        let ends: [(inout Machine) -> Machine.Action] = [{ $0.sourceFailed() }, { $0.stopped() }]
        for end in ends {
            var machine = Machine(rule: rule)
            _ = Self.arrive(1, at: &machine)
            _ = Self.arrive(2, at: &machine)  // held by both rules
            let running = machine.runningTimer!
            let dropped = machine.held!
            #expect(Self.describe(end(&machine)) == "end, cancel \(running), release \(dropped)")
            #expect(machine.hasEnded && machine.held == nil && machine.runningTimer == nil)
        }
    }

    @Test(arguments: [Machine.Rule.debounce, .throttle(latest: true), .throttle(latest: false)])
    func afterTheEndNothingIsHeldOrStarted(rule: Machine.Rule) {
        var machine = Machine(rule: rule)
        _ = machine.valueArrived(1)  // a timer 0 is being started
        _ = machine.sourceCompleted()
        #expect(Self.describe(machine.valueArrived(2)) == "nothing")
        #expect(machine.held == nil)
        #expect(machine.timerStarted("t0", id: 0) == "t0")  // started after the end: cancel it
        #expect(Self.describe(machine.timerFired(0)) == "nothing")
        #expect(Self.describe(machine.stopped()) == "nothing")  // ends once
        #expect(Self.describe(machine.sourceFailed()) == "nothing")
    }

    // MARK: throttle

    @Test(arguments: [true, false])
    func throttleSendsAValueAtOnceWhenNoWindowIsOpenAndOpensOne(latest: Bool) {
        var machine = Machine(rule: .throttle(latest: latest))
        #expect(Self.arrive(1, at: &machine) == "send 1, start 0")
        #expect(machine.held == nil && machine.runningTimer == "t0")
    }

    @Test(arguments: [true, false])
    func throttleKeepsTheFirstOrTheLatestValueOfTheWindow(latest: Bool) {
        var machine = Machine(rule: .throttle(latest: latest))
        _ = Self.arrive(1, at: &machine)
        #expect(Self.arrive(2, at: &machine) == "nothing")
        #expect(Self.arrive(3, at: &machine) == (latest ? "release 2" : "nothing"))  // the new one is the caller's
        let kept = latest ? 3 : 2
        #expect(machine.held == kept)
        #expect(Self.fire(0, at: &machine) == "send \(kept), start 1")  // and a new window
    }

    @Test(arguments: [true, false])
    func aWindowWithNothingHeldEndsAndTheNextValueGoesAtOnce(latest: Bool) {
        var machine = Machine(rule: .throttle(latest: latest))
        _ = Self.arrive(1, at: &machine)
        #expect(Self.fire(0, at: &machine) == "nothing")
        #expect(machine.runningTimerID == nil && machine.runningTimer == nil)
        #expect(Self.arrive(2, at: &machine) == "send 2, start 1")
    }

    @Test func throttleWindowsFollowEachOtherWhileValuesWait() {
        var machine = Machine(rule: .throttle(latest: true))
        _ = Self.arrive(1, at: &machine)
        _ = Self.arrive(2, at: &machine)
        #expect(Self.fire(0, at: &machine) == "send 2, start 1")
        _ = Self.arrive(3, at: &machine)
        #expect(Self.fire(1, at: &machine) == "send 3, start 2")
        #expect(Self.fire(2, at: &machine) == "nothing")
        #expect(Self.fire(1, at: &machine) == "nothing")  // an old window's timer counts for nothing
    }

    @Test(arguments: [true, false])
    func throttleCompletionSendsTheWaitingValueAtOnce(latest: Bool) {
        var machine = Machine(rule: .throttle(latest: latest))
        _ = Self.arrive(1, at: &machine)
        _ = Self.arrive(2, at: &machine)
        _ = Self.arrive(3, at: &machine)
        #expect(Self.describe(machine.sourceCompleted()) == "end sending \(latest ? 3 : 2), cancel t0")
        var open = Machine(rule: .throttle(latest: latest))
        _ = Self.arrive(1, at: &open)
        #expect(Self.describe(open.sourceCompleted()) == "end, cancel t0")  // nothing waits
    }
}
