import TestSupport
import Testing

@testable import Reactive

/// Every transition of ``SignalValuesStateMachine``, without threads: the waiter is a
/// number, so that what the machine hands back says which task it resumes, and the
/// observation is a handle that counts its detaches.
@Suite struct SignalValuesStateMachineTests {
    typealias Machine = SignalValuesStateMachine<Int, Int>

    /// A machine for `policy`, attached with a handle whose detaches `detaches` counts.
    static func machine(_ policy: SignalBufferingPolicy = .unbounded, detaches: Counter = Counter()) -> Machine {
        var machine = Machine(policy: policy)
        machine.observerAttached(SignalObservation { detaches.increment() })
        return machine
    }

    /// What `next()` would get now, as short strings: the values taken in one
    /// transition, or ["nil"], ["suspend"] or the error's type.
    static func take(_ machine: inout Machine) -> [String] {
        var batch = RingBuffer<Int>()
        switch machine.nextRequested(into: &batch) {
        case .taken:
            var values: [String] = []
            while let value = batch.popFirst() { values.append("\(value)") }
            return values
        case .end(let end): return [describe(end)]
        case .suspend: return ["suspend"]
        }
    }

    /// What the next call of `next()` would return now.
    static func next(_ machine: inout Machine) -> String {
        take(&machine)[0]
    }

    static func describe(_ end: Machine.End) -> String {
        switch end {
        case .success(let value): value.map { "\($0)" } ?? "nil"
        case .failure(let error): "\(type(of: error))"
        }
    }

    /// Takes values until `next()` would suspend or has ended, the end included.
    static func drain(_ machine: inout Machine) -> [String] {
        var taken: [String] = []
        while taken.last != "nil" && taken.last != "suspend" && !(taken.last?.hasSuffix("Error") ?? false) {
            taken += take(&machine)
        }
        return taken
    }

    /// Which waiter an action resumes, and with what.
    static func resumed(_ action: Machine.EndAction) -> String? {
        action.resume.map { "\($0.waiter): \(describe($0.end))" }
    }

    static func describe(_ action: Machine.ValueAction) -> String {
        switch action {
        case .none: "none"
        case .resume(let waiter): "resume \(waiter)"
        case .release(let dropped): "release \(dropped)"
        }
    }

    static func describe(_ action: Machine.WaiterAction) -> String {
        switch action {
        case .suspended: "suspended"
        case .resume(let end): "resume with \(describe(end))"
        case .anotherTaskAwaits: "another task awaits"
        }
    }

    static func describe(_ action: Machine.LeftoversAction) -> String {
        switch action {
        case .none: "none"
        case .release(let leftovers): "release \(leftovers.count)"
        case .resume(let waiter, let value): "resume \(waiter) with \(value)"
        }
    }

    static func describe(_ phase: Machine.Phase) -> String {
        switch phase {
        case .open: "open"
        case .awaiting(let waiter): "awaiting \(waiter)"
        case .closing(let end): "closing with \(describe(end))"
        case .finished: "finished"
        }
    }

    // MARK: Values and the waiting task

    @Test func valuesWithNoTaskWaitingAreKeptAndTakenInOrderWithoutSuspending() {
        var machine = Self.machine()
        let actions = (1...3).map { Self.describe(machine.valueReceived($0)) }
        #expect(actions == ["none", "none", "none"])
        #expect(Self.drain(&machine) == ["1", "2", "3", "suspend"])
    }

    /// Unbounded, the task takes everything kept in one transition (and hands it out
    /// without the lock); with a bounded policy, whose limit counts what is not handed
    /// out yet, one value at a time.
    @Test(arguments: [
        (SignalBufferingPolicy.unbounded, [["1", "2", "3"], ["suspend"]]),
        (.newest(5), [["1"], ["2"], ["3"], ["suspend"]]), (.oldest(5), [["1"], ["2"], ["3"], ["suspend"]]),
    ])
    func theTaskTakesEverythingKeptOnlyWhenNothingLimitsIt(policy: SignalBufferingPolicy, takes: [[String]]) {
        var machine = Self.machine(policy)
        for value in 1...3 { _ = machine.valueReceived(value) }
        #expect(takes.indices.map { _ in Self.take(&machine) } == takes)
    }

    /// An iterator released with values left in its batch gives them back: they come
    /// out first, before the values kept since; after the end, they are released.
    @Test func leftoversOfAReleasedIteratorComeOutFirst() {
        var machine = Self.machine()
        for value in 1...3 { _ = machine.valueReceived(value) }
        var batch = RingBuffer<Int>()
        _ = machine.nextRequested(into: &batch)
        _ = batch.popFirst()  // 1 was handed out; 2 and 3 are left
        _ = machine.valueReceived(4)
        #expect(Self.describe(machine.leftoversReturned(batch)) == "none")
        #expect(Self.drain(&machine) == ["2", "3", "4", "suspend"])
        _ = machine.waiterArrived(8)  // another iterator waits: the first leftover resumes it
        #expect(Self.describe(machine.leftoversReturned(Self.ring(5, 6))) == "resume 8 with 5")
        #expect(Self.drain(&machine) == ["6", "suspend"])
        _ = machine.terminalReceived(.completed)
        #expect(Self.next(&machine) == "nil")
        #expect(Self.describe(machine.leftoversReturned(Self.ring(7))) == "release 1")
    }

    static func ring(_ elements: Int...) -> RingBuffer<Int> {
        var ring = RingBuffer<Int>()
        for element in elements { ring.append(element) }
        return ring
    }

    @Test func aValueResumesTheWaitingTaskDirectlyAndIsNotKept() {
        var machine = Self.machine()
        #expect(Self.next(&machine) == "suspend")
        #expect(Self.describe(machine.waiterArrived(7)) == "suspended")
        #expect(Self.describe(machine.valueReceived(1)) == "resume 7")
        #expect(machine.buffer.isEmpty)
        #expect(Self.describe(machine.valueReceived(2)) == "none")  // kept, not resumed twice
        #expect(Self.drain(&machine) == ["2", "suspend"])
    }

    /// A value that arrives between `nextRequested` and the task's suspension is handed
    /// to the arriving task: no wake-up is lost.
    @Test func aValueThatArrivesBeforeTheTaskSuspendsResumesItAtOnce() {
        var machine = Self.machine()
        #expect(Self.next(&machine) == "suspend")
        _ = machine.valueReceived(5)
        #expect(Self.describe(machine.waiterArrived(1)) == "resume with 5")
        #expect(Self.describe(machine.phase) == "open")
    }

    @Test func aSecondTaskArrivingWhileOneWaitsIsReported() {
        var machine = Self.machine()
        _ = machine.waiterArrived(1)
        #expect(Self.next(&machine) == "suspend")
        #expect(Self.describe(machine.waiterArrived(2)) == "another task awaits")
        #expect(Self.describe(machine.valueReceived(3)) == "resume 1")  // the first keeps its place
    }

    // MARK: Buffering policies

    @Test(arguments: [
        (SignalBufferingPolicy.unbounded, ["1", "2", "3", "4", "5"], [Int]()),
        (.newest(2), ["4", "5"], [1, 2, 3]), (.oldest(2), ["1", "2"], []),
        (.newest(0), [], []), (.oldest(0), [], []), (.newest(-1), [], []), (.oldest(-1), [], []),
    ])
    func thePolicyDecidesWhatIsKept(policy: SignalBufferingPolicy, kept: [String], released: [Int]) {
        var machine = Self.machine(policy)
        var dropped: [Int] = []
        for value in 1...5 {
            if case .release(let value) = machine.valueReceived(value) { dropped.append(value) }
        }
        #expect(dropped == released)  // pushed out values are released after unlocking
        #expect(Self.drain(&machine) == kept + ["suspend"])
    }

    /// A policy that keeps nothing still hands a value to a task that waits for it.
    @Test(arguments: [SignalBufferingPolicy.newest(0), .oldest(0)])
    func aPolicyThatKeepsNothingStillFeedsAWaitingTask(policy: SignalBufferingPolicy) {
        var machine = Self.machine(policy)
        _ = machine.waiterArrived(1)
        #expect(Self.describe(machine.valueReceived(9)) == "resume 1")
    }

    // MARK: The end of the signal

    @Test(arguments: [
        (Signal<Int>.Event.completed, "nil"), (.failed(TestError()), "TestError"),
        (.interrupted, "CancellationError"),
    ])
    func keptValuesGoOutBeforeTheEndAndTheEndGoesOutOnce(terminal: Signal<Int>.Event, end: String) {
        let detaches = Counter()
        var machine = Self.machine(detaches: detaches)
        _ = machine.valueReceived(1)
        _ = machine.valueReceived(2)
        let action = machine.terminalReceived(terminal)
        #expect(action.resume == nil && action.observation != nil)  // released, not detached
        #expect(Self.describe(machine.valueReceived(3)) == "none")  // after the end: dropped
        #expect(Self.drain(&machine) == ["1", "2", end])
        #expect(Self.next(&machine) == "nil")  // after the end, the loop just ends
        #expect(detaches.count == 0)
    }

    @Test(arguments: [
        (Signal<Int>.Event.completed, "4: nil"), (.failed(TestError()), "4: TestError"),
        (.interrupted, "4: CancellationError"),
    ])
    func theEndResumesTheWaitingTask(terminal: Signal<Int>.Event, resumed: String) {
        var machine = Self.machine()
        _ = machine.waiterArrived(4)
        #expect(Self.resumed(machine.terminalReceived(terminal)) == resumed)
        #expect(Self.next(&machine) == "nil")
        #expect(Self.describe(machine.waiterArrived(5)) == "resume with nil")
    }

    @Test func aSecondTerminalEventChangesNothing() {
        var machine = Self.machine()
        _ = machine.terminalReceived(.failed(TestError()))
        let second = machine.terminalReceived(.completed)
        #expect(second.resume == nil && second.observation == nil)
        #expect(Self.next(&machine) == "TestError")
    }

    /// A signal that had ended delivers its terminal event while the observer attaches:
    /// the handle comes after the end and is not kept.
    @Test func anObservationThatArrivesAfterTheEndIsNotKept() {
        var machine = Machine(policy: .unbounded)
        _ = machine.terminalReceived(.completed)
        machine.observerAttached(SignalObservation {})
        #expect(machine.observation == nil)
        #expect(Self.next(&machine) == "nil")
    }

    // MARK: The consumer leaving

    @Test func cancellingAWaitingTaskResumesItWithNilAndHandsBackTheObservation() {
        var machine = Self.machine()
        _ = machine.waiterArrived(3)
        let action = machine.cancelled()
        #expect(Self.resumed(action) == "3: nil")
        #expect(action.observation != nil)
        #expect(Self.describe(machine.valueReceived(1)) == "none")  // after leaving: dropped
        #expect(Self.next(&machine) == "nil")
    }

    /// The runtime's cancellation handler only gets the waiter back; the task, resumed,
    /// gets the observation to detach from its own `cancelled()`.
    @Test func aCancellationRequestResumesTheWaiterAndLeavesTheDetachingToTheTask() {
        var machine = Self.machine()
        _ = machine.waiterArrived(3)
        #expect(machine.cancellationRequested() == 3)
        #expect(machine.observation != nil)
        #expect(Self.describe(machine.valueReceived(1)) == "none")  // after leaving: dropped
        let action = machine.cancelled()
        #expect(action.resume == nil && action.observation != nil)
        #expect(machine.cancelled().observation == nil)  // detached once

        var open = Self.machine()  // cancelled before it suspends: the next wait ends at once
        #expect(open.cancellationRequested() == nil)
        #expect(open.observation != nil)
        #expect(Self.next(&open) == "nil")
        #expect(open.cancelled().observation != nil)
    }

    /// As with `AsyncThrowingStream`: a cancelled task still takes what was kept, then
    /// the loop ends without an error.
    @Test func cancellingKeepsTheValuesAlreadyKeptAndDropsLaterOnes() {
        var machine = Self.machine()
        _ = machine.valueReceived(1)
        let action = machine.cancelled()
        #expect(action.resume == nil && action.observation != nil)
        _ = machine.valueReceived(2)
        #expect(Self.drain(&machine) == ["1", "nil"])
        let again = machine.cancelled()
        #expect(again.resume == nil && again.observation == nil)  // detached once
    }

    @Test func cancellingAfterTheSignalFailedKeepsTheFailure() {
        var machine = Self.machine()
        _ = machine.terminalReceived(.failed(TestError()))
        let action = machine.cancelled()
        #expect(action.resume == nil && action.observation == nil)
        #expect(Self.next(&machine) == "TestError")
    }

    @Test func releasingTheSequenceHandsBackTheObservationAndTheKeptValues() {
        var machine = Self.machine()
        for value in 1...3 { _ = machine.valueReceived(value) }
        let (action, kept) = machine.readerReleased()
        #expect(action.resume == nil && action.observation != nil)
        #expect(kept.compactMap { $0 } == [1, 2, 3])
        #expect(machine.buffer.isEmpty && machine.buffer.capacity == 0)
        #expect(Self.describe(machine.phase) == "finished")
    }
}
