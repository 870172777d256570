import Testing

@testable import Reactive

/// Every transition of ``TimeOperatorStateMachine``, without threads or clocks: time is a
/// number the test passes (an interval of 10), a timer is a label (`"t0"` for the timer
/// the machine numbered 0) that the test says was started and fired; each action is
/// checked as a short string.
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
        case .startTimer(let id, let nanoseconds, let replaced): "start \(id) for \(nanoseconds)" + release(replaced)
        case .sendThenStartTimer(let value, let id): "send \(value), start \(id)"
        case .end(let value, let running, let dropped):
            "end" + (value.map { " sending \($0)" } ?? "") + cancel(running) + release(dropped)
        }
    }

    /// Feeds `value` to `machine` at `now` and reports the timer the action starts as
    /// started (labelled `t<id>`), as the storage does.
    static func arrive(_ value: Int, at machine: inout Machine, now: UInt64 = 0) -> String {
        let action = machine.valueArrived(value, now: now)
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

    /// Fires timer `id` at `now` and reports the timer the action starts, if any, as
    /// started.
    static func fire(_ id: Int, at machine: inout Machine, now: UInt64 = 10) -> String {
        let action = machine.timerFired(id, now: now)
        start(action, in: &machine)
        return describe(action)
    }

    // MARK: debounce

    @Test func debounceHoldsTheLatestValueAndStartsOneTimerPerBurst() {
        var machine = Machine(rule: .debounce, interval: 10)
        #expect(Self.arrive(1, at: &machine, now: 0) == "start 0 for 10")
        #expect(Self.arrive(2, at: &machine, now: 3) == "release 1")  // released after unlocking
        #expect(Self.arrive(3, at: &machine, now: 5) == "release 2")  // the timer runs on
        #expect(machine.held == 3 && machine.deadline == 15)
        #expect(machine.runningTimerID == 0 && machine.runningTimer == "t0")
    }

    @Test func aTimerThatFiresBeforeTheHeldValueIsDueStartsOnceMoreForWhatIsLeft() {
        var machine = Machine(rule: .debounce, interval: 10)
        _ = Self.arrive(1, at: &machine, now: 0)
        _ = Self.arrive(2, at: &machine, now: 5)  // due at 15
        #expect(Self.fire(0, at: &machine, now: 10) == "start 1 for 5")
        #expect(Self.fire(0, at: &machine, now: 15) == "nothing")  // an old timer counts for nothing
        #expect(Self.fire(1, at: &machine, now: 14) == "start 2 for 1")  // a timekeeper that fires early
        #expect(Self.fire(2, at: &machine, now: 15) == "send 2")
        #expect(machine.held == nil && machine.runningTimerID == nil && machine.runningTimer == nil)
        #expect(Self.fire(2, at: &machine, now: 15) == "nothing")  // fires once
        #expect(Self.arrive(3, at: &machine, now: 20) == "start 3 for 10")  // a new wait
    }

    @Test func aDeadlinePastTheEndOfTimeIsTheEndOfTime() {
        var machine = Machine(rule: .debounce, interval: .max)
        _ = Self.arrive(1, at: &machine, now: 5)
        #expect(machine.deadline == .max)
        #expect(Self.fire(0, at: &machine, now: .max) == "send 1")
    }

    @Test func aTimerThatFiresBeforeItIsHandedOverStillCounts() {
        var machine = Machine(rule: .debounce, interval: 0)
        _ = machine.valueArrived(1, now: 0)
        #expect(Self.describe(machine.timerFired(0, now: 0)) == "send 1")  // a zero interval
        #expect(machine.timerStarted("t0", id: 0) == "t0")  // already done: cancelling it does nothing
        #expect(machine.runningTimer == nil)
    }

    @Test func debounceCompletionSendsTheHeldValueFirstAndCancelsTheTimer() {
        var machine = Machine(rule: .debounce, interval: 10)
        _ = Self.arrive(1, at: &machine)
        _ = Self.arrive(2, at: &machine)
        #expect(Self.describe(machine.sourceCompleted()) == "end sending 2, cancel t0")
        #expect(machine.hasEnded && machine.held == nil && machine.runningTimerID == nil && machine.runningTimer == nil)
    }

    @Test func completionWithNothingHeldOnlyEnds() {
        var machine = Machine(rule: .debounce, interval: 10)
        #expect(Self.describe(machine.sourceCompleted()) == "end")
        var fired = Machine(rule: .debounce, interval: 10)
        _ = Self.arrive(1, at: &fired)
        _ = Self.fire(0, at: &fired)
        #expect(Self.describe(fired.sourceCompleted()) == "end")
    }

    @Test(arguments: [Machine.Rule.debounce, .throttle(latest: true), .throttle(latest: false)])
    func failureAndStopDropTheHeldValueAndCancelTheTimer(rule: Machine.Rule) {
        let ends: [(inout Machine) -> Machine.Action] = [{ $0.sourceFailed() }, { $0.stopped() }]
        for end in ends {
            var machine = Machine(rule: rule, interval: 10)
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
        var machine = Machine(rule: rule, interval: 10)
        _ = machine.valueArrived(1, now: 0)  // a timer 0 is being started
        _ = machine.sourceCompleted()
        #expect(Self.describe(machine.valueArrived(2, now: 0)) == "nothing")
        #expect(machine.held == nil)
        #expect(machine.timerStarted("t0", id: 0) == "t0")  // started after the end: cancel it
        #expect(Self.describe(machine.timerFired(0, now: 10)) == "nothing")
        #expect(Self.describe(machine.stopped()) == "nothing")  // ends once
        #expect(Self.describe(machine.sourceFailed()) == "nothing")
    }

    // MARK: throttle

    @Test(arguments: [true, false])
    func throttleSendsAValueAtOnceWhenNoWindowIsOpenAndOpensOne(latest: Bool) {
        var machine = Machine(rule: .throttle(latest: latest), interval: 10)
        #expect(Self.arrive(1, at: &machine) == "send 1, start 0")
        #expect(machine.held == nil && machine.runningTimer == "t0")
    }

    @Test(arguments: [true, false])
    func throttleKeepsTheFirstOrTheLatestValueOfTheWindow(latest: Bool) {
        var machine = Machine(rule: .throttle(latest: latest), interval: 10)
        _ = Self.arrive(1, at: &machine)
        #expect(Self.arrive(2, at: &machine) == "nothing")
        #expect(Self.arrive(3, at: &machine) == (latest ? "release 2" : "nothing"))  // the new one is the caller's
        let kept = latest ? 3 : 2
        #expect(machine.held == kept)
        #expect(Self.fire(0, at: &machine) == "send \(kept), start 1")  // and a new window
    }

    @Test(arguments: [true, false])
    func aWindowWithNothingHeldEndsAndTheNextValueGoesAtOnce(latest: Bool) {
        var machine = Machine(rule: .throttle(latest: latest), interval: 10)
        _ = Self.arrive(1, at: &machine)
        #expect(Self.fire(0, at: &machine) == "nothing")
        #expect(machine.runningTimerID == nil && machine.runningTimer == nil)
        #expect(Self.arrive(2, at: &machine) == "send 2, start 1")
    }

    @Test func throttleWindowsFollowEachOtherWhileValuesWait() {
        var machine = Machine(rule: .throttle(latest: true), interval: 10)
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
        var machine = Machine(rule: .throttle(latest: latest), interval: 10)
        _ = Self.arrive(1, at: &machine)
        _ = Self.arrive(2, at: &machine)
        _ = Self.arrive(3, at: &machine)
        #expect(Self.describe(machine.sourceCompleted()) == "end sending \(latest ? 3 : 2), cancel t0")
        var open = Machine(rule: .throttle(latest: latest), interval: 10)
        _ = Self.arrive(1, at: &open)
        #expect(Self.describe(open.sourceCompleted()) == "end, cancel t0")  // nothing waits
    }
}
