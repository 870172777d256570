import FutureBridge
import TestSupport
import Testing

@testable import Reactive

/// Every transition of ``SignalStateMachine``, without threads: the machine only holds
/// handlers, starts and stops, and hands them back; these tests check what it hands back.
@Suite struct SignalStateMachineTests {
    typealias Machine = SignalStateMachine<Int>

    static func observer() -> SignalObserver<Int> {
        SignalObserver(context: .inline) { _ in }
    }

    static func idleMachine() -> Machine {
        Machine(source: .idle({ _, _ in }))
    }

    static func runningMachine() -> Machine {
        Machine(source: .running({}))
    }

    /// Attaches `observer` to `machine` and returns the id that detaches it.
    static func attach(_ observer: SignalObserver<Int>, to machine: inout Machine) -> Int {
        switch machine.observerAttached(observer) {
        case .attached(let id), .startSource(_, let id):
            return id
        case .deliverTerminal:
            Issue.record("attached to an ended machine")
            return -1
        }
    }

    // MARK: Observers and the source

    @Test func firstObserverStartsAnIdleSourceAndLaterOnesDoNot() {
        var machine = Self.idleMachine()
        guard case .startSource = machine.observerAttached(Self.observer()) else {
            Issue.record("the first observer must start the source")
            return
        }
        guard case .starting = machine.source else { return #expect(Bool(false)) }
        guard case .attached = machine.observerAttached(Self.observer()) else { return #expect(Bool(false)) }
        #expect(machine.observers.count == 2)
        #expect(machine.observersVersion == 2)
    }

    @Test func sourceStartedIsKeptWhileRunning() {
        var machine = Self.idleMachine()
        _ = machine.observerAttached(Self.observer())
        let stopNow1 = machine.sourceStarted({})
        #expect(stopNow1 == nil)
        guard case .running = machine.source else { return #expect(Bool(false)) }
    }

    @Test func sourceEndedWhileStartingIsStoppedOnceItHasStarted() {
        var machine = Self.idleMachine()
        _ = machine.observerAttached(Self.observer())
        let ending = machine.terminalEventReached(.completed)
        #expect(ending?.stop == nil)  // nothing to stop yet
        let stopNow2 = machine.sourceStarted({})
        #expect(stopNow2 != nil)  // so its stop runs as soon as it is handed over
        guard case .stopped = machine.source else { return #expect(Bool(false)) }
    }

    @Test func detachingOneOfTwoObserversKeepsTheSignal() {
        var machine = Self.runningMachine()
        let first = Self.attach(Self.observer(), to: &machine)
        _ = machine.observerAttached(Self.observer())
        let wasLast1 = machine.observerDetached(id: first)
        #expect(wasLast1 == false)
        #expect(machine.observers.count == 1)
        #expect(machine.observersVersion == 3)
    }

    @Test func detachingTheLastObserverAsksForAnInterruption() {
        var machine = Self.runningMachine()
        let only = Self.attach(Self.observer(), to: &machine)
        let wasLast2 = machine.observerDetached(id: only)
        #expect(wasLast2)
        let wasLast3 = machine.observerDetached(id: only)
        #expect(wasLast3 == false)  // twice: nothing
        #expect(machine.isEnded == false)  // the interruption is sent, and ends it when delivered
    }

    @Test func detachingAfterTheEndDoesNothing() {
        var machine = Self.runningMachine()
        let only = Self.attach(Self.observer(), to: &machine)
        _ = machine.terminalEventReached(.completed)
        let wasLast4 = machine.observerDetached(id: only)
        #expect(wasLast4 == false)
    }

    @Test func observerAttachingAfterTheEndGetsTheTerminalEventAndIsNotKept() {
        var machine = Self.runningMachine()
        _ = machine.terminalEventReached(.failed(TestFailure()))
        guard case .deliverTerminal(.failed) = machine.observerAttached(Self.observer()) else {
            return #expect(Bool(false))
        }
        #expect(machine.observers.isEmpty)
    }

    // MARK: Delivery

    /// The observers a refresh hands the drainer: all of them after an attach; after
    /// detaches, only the positions to clear in the copy it has.
    static func refreshed(_ machine: inout Machine) -> (observers: [ObjectIdentifier]?, holes: [Int]?, version: Int) {
        switch machine.deliveryListRefreshed() {
        case .replace(let observers, let version): (observers.map(ObjectIdentifier.init), nil, version)
        case .clearHoles(let positions, let version): (nil, positions, version)
        }
    }

    @Test func deliveryListFollowsAttachAndDetachDuringADelivery() {
        var machine = Self.runningMachine()
        let first = Self.observer()
        let firstID = Self.attach(first, to: &machine)
        let copied = Self.refreshed(&machine)  // the drainer's copy, taken before a value
        #expect(copied.observers == [ObjectIdentifier(first)])
        let second = Self.observer()
        _ = machine.observerAttached(second)  // attached while that value is delivered
        #expect(machine.observersVersion != copied.version)  // the next value refreshes
        #expect(Self.refreshed(&machine).observers == [first, second].map(ObjectIdentifier.init))
        _ = machine.observerDetached(id: firstID)  // detached during a delivery
        let afterDetach = Self.refreshed(&machine)
        #expect(afterDetach.holes == [0])  // its place in the copy is cleared, nothing copied
        #expect(afterDetach.version == machine.observersVersion)
        #expect(machine.observers.map(ObjectIdentifier.init) == [ObjectIdentifier(second)])
    }

    @Test func detachesMakeHolesUntilTheyOutnumberTheObserversThenTheSlotsAreCompacted() {
        var machine = Self.runningMachine()
        let observers = (0..<8).map { _ in Self.observer() }
        let ids = observers.map { Self.attach($0, to: &machine) }
        _ = Self.refreshed(&machine)
        for id in ids[2..<6] { _ = machine.observerDetached(id: id) }  // 4 holes, 4 observers
        #expect(machine.slots.count == 8)
        #expect(Self.refreshed(&machine).holes == [2, 3, 4, 5])
        _ = machine.observerDetached(id: ids[7])  // 5 holes, 3 observers: compacted
        #expect(machine.slots.count == 3)
        #expect(machine.observers.map(ObjectIdentifier.init) == [0, 1, 6].map { ObjectIdentifier(observers[$0]) })
        // The drainer's copy no longer has the slots' layout: it is taken whole.
        #expect(Self.refreshed(&machine).observers == [0, 1, 6].map { ObjectIdentifier(observers[$0]) })
        // Ids still find their observers after the compaction.
        let wasLast = machine.observerDetached(id: ids[1])
        #expect(!wasLast)
        let wasLastAgain = machine.observerDetached(id: ids[1])
        #expect(!wasLastAgain)  // twice: nothing
        #expect(machine.observers.map(ObjectIdentifier.init) == [0, 6].map { ObjectIdentifier(observers[$0]) })
        #expect(Self.refreshed(&machine).holes == [1])
    }

    @Test func detachesInEitherOrderKeepTheOthersInAttachmentOrder() {
        for reversed in [false, true] {
            var machine = Self.runningMachine()
            let observers = (0..<100).map { _ in Self.observer() }
            let ids = observers.map { Self.attach($0, to: &machine) }
            let order = reversed ? Array((0..<100).reversed()) : Array(0..<100)
            for (count, index) in order.enumerated() {
                _ = Self.refreshed(&machine)
                let wasLast = machine.observerDetached(id: ids[index])
                #expect(wasLast == (count == 99))
                let left = order[(count + 1)...].sorted()
                #expect(machine.observers.map(ObjectIdentifier.init) == left.map { ObjectIdentifier(observers[$0]) })
                #expect(machine.slots.count <= 2 * left.count + 1)
            }
            #expect(machine.slots.isEmpty)
        }
    }

    @Test func eventsQueuedDuringADeliveryAreTakenInOrder() {
        var machine = Self.runningMachine()
        let accepted1 = machine.eventQueued(.value(1))
        #expect(accepted1)
        let accepted2 = machine.eventQueued(.value(2))
        #expect(accepted2)
        let taken1 = machine.queuedEventTaken()
        #expect(taken1.value == 1)
        let accepted3 = machine.eventQueued(.value(3))
        #expect(accepted3)
        let taken2 = machine.queuedEventTaken()
        #expect(taken2.value == 2)
        let taken3 = machine.queuedEventTaken()
        #expect(taken3.value == 3)
        #expect(machine.queued.isEmpty && machine.queuedHead == 0)  // the queue is reset once empty
    }

    @Test func terminalEventQueuedMidDeliveryEndsTheSignalWhenReached() {
        var machine = Self.runningMachine()
        let observer = Self.observer()
        _ = machine.observerAttached(observer)
        let accepted4 = machine.eventQueued(.value(1))
        #expect(accepted4)
        let accepted5 = machine.eventQueued(.completed)
        #expect(accepted5)
        let accepted6 = machine.eventQueued(.value(2))
        #expect(accepted6)  // sent after the end, before it was delivered
        let taken4 = machine.queuedEventTaken()
        #expect(taken4.value == 1)
        #expect(machine.isEnded == false)
        let terminal = machine.queuedEventTaken()
        let ending = machine.terminalEventReached(terminal)
        #expect(ending?.observers.map(ObjectIdentifier.init) == [ObjectIdentifier(observer)])
        #expect(ending?.stop != nil)
        #expect(ending?.version == machine.observersVersion)
        #expect(Self.refreshed(&machine).observers == [])  // what is still queued goes to nobody
        let taken5 = machine.queuedEventTaken()
        #expect(taken5.value == 2)
        let accepted7 = machine.eventQueued(.value(3))
        #expect(accepted7 == false)  // after the end: dropped, not counted
    }

    @Test func secondTerminalEventIsIgnored() {
        var machine = Self.runningMachine()
        _ = machine.observerAttached(Self.observer())
        let ending1 = machine.terminalEventReached(.completed)
        #expect(ending1 != nil)
        let ending2 = machine.terminalEventReached(.interrupted)
        #expect(ending2 == nil)
        guard case .completed = machine.terminal else { return #expect(Bool(false)) }
    }

    @Test func endingStopsARunningSourceOnce() {
        var machine = Self.runningMachine()
        let ending3 = machine.terminalEventReached(.interrupted)
        #expect(ending3?.stop != nil)
        guard case .stopped = machine.source else { return #expect(Bool(false)) }
    }

    // MARK: A source's task holding the turn

    /// The machine of a running source whose task holds the turn; running the stop it
    /// hands back counts on `stops`.
    static func machineWithSourceHoldingTurn(stops: Counter) -> Machine {
        var machine = Machine(source: .running({ stops.increment() }))
        machine.sourceHoldsTurn = true
        return machine
    }

    @Test func aTerminalQueuedWhileNoSourceHoldsTheTurnIsQueuedAsAnyEvent() {
        var machine = Self.runningMachine()
        _ = machine.observerAttached(Self.observer())
        guard case .queued = machine.terminalQueued(.interrupted) else {
            Issue.record("expected the terminal event to be queued")
            return
        }
        #expect(!machine.isEnded)
        #expect(machine.queuedEventTaken().isTerminal)
    }

    /// The last observer left while the task waits for its sequence: the signal ends
    /// here and the stop comes back at once, so that a later observer is not left waiting
    /// for a task that may never wake.
    @Test func aTerminalQueuedWithNoObserverWhileTheSourceHoldsTheTurnEndsTheSignalAndStopsTheSource() {
        let stops = Counter()
        var machine = Self.machineWithSourceHoldingTurn(stops: stops)
        let version = machine.observersVersion
        guard case .stopSource(let stop, queued: false) = machine.terminalQueued(.interrupted) else {
            Issue.record("expected the source to be stopped and the signal ended")
            return
        }
        stop?()
        #expect(stops.count == 1)
        #expect(machine.isEnded)
        #expect(machine.queued.isEmpty)
        #expect(machine.observersVersion != version)  // the holding task's copy refreshes
        guard case .deliverTerminal(.interrupted) = machine.observerAttached(Self.observer()) else {
            Issue.record("expected a later observer to get the interruption at once")
            return
        }
        #expect(machine.terminalEventReached(.completed) == nil)  // the task's own end is ignored
        guard case .dropped = machine.terminalQueued(.interrupted) else {
            Issue.record("expected a terminal event after the end to be dropped")
            return
        }
    }

    /// An observer attached after the last one left and before the terminal event was
    /// sent: it must get that event from the task, so the event is queued, and the stop
    /// comes back at once to wake the task.
    @Test func aTerminalQueuedWithObserversWhileTheSourceHoldsTheTurnIsQueuedAndStopsTheSource() {
        let stops = Counter()
        var machine = Self.machineWithSourceHoldingTurn(stops: stops)
        _ = machine.observerAttached(Self.observer())
        guard case .stopSource(let stop, queued: true) = machine.terminalQueued(.interrupted) else {
            Issue.record("expected the event to be queued and the source stopped")
            return
        }
        stop?()
        #expect(stops.count == 1)
        #expect(!machine.isEnded)
        #expect(machine.queuedEventTaken().isTerminal)
        let ending = machine.terminalEventReached(.interrupted)
        #expect(ending?.observers.count == 1)
        #expect(ending?.stop == nil)  // already handed out: a stop runs once
    }

    @Test func theLastObserverLeavingInterruptsOrEndsTheSignalHereWhenTheSourceHoldsTheTurn() {
        var plain = Self.runningMachine()
        let first = Self.attach(Self.observer(), to: &plain)
        let second = Self.attach(Self.observer(), to: &plain)
        guard case .refreshQueued = plain.observerLeft(id: first) else {
            Issue.record("expected a refresh of the drainer's copy while an observer remains")
            return
        }
        guard case .interrupt = plain.observerLeft(id: second) else {
            Issue.record("expected the last observer to interrupt the signal")
            return
        }
        #expect(!plain.isEnded)  // ended by the interruption, once delivered

        let stops = Counter()
        var holding = Self.machineWithSourceHoldingTurn(stops: stops)
        let only = Self.attach(Self.observer(), to: &holding)
        guard case .stopSource(let stop) = holding.observerLeft(id: only) else {
            Issue.record("expected the signal to end here and the stop to come back")
            return
        }
        stop?()
        #expect(stops.count == 1)
        #expect(holding.isEnded)
        guard case .deliverTerminal(.interrupted) = holding.observerAttached(Self.observer()) else {
            Issue.record("expected a later observer to get the interruption at once")
            return
        }
    }

    /// A detach that leaves other observers queues a refresh of the drainer's copy,
    /// taken after the events queued, as `nil`.
    @Test func anObserverLeavingWhileOthersRemainQueuesARefreshOfTheDrainersCopy() {
        var machine = Self.runningMachine()
        let first = Self.attach(Self.observer(), to: &machine)
        _ = machine.observerAttached(Self.observer())
        let accepted = machine.eventQueued(.value(1))
        #expect(accepted)
        guard case .refreshQueued = machine.observerLeft(id: first) else {
            Issue.record("expected a refresh to be queued while an observer remains")
            return
        }
        guard case .nothing = machine.observerLeft(id: first) else {
            Issue.record("expected nothing for an observer that had left")
            return
        }
        #expect(machine.queuedTaken()?.value == 1)
        #expect(machine.queuedTaken() == nil)  // the refresh
        #expect(machine.refreshesQueued == 0)
    }

    /// A source still starting has not handed over its stop: it runs it once it has.
    @Test func aTerminalQueuedWhileTheHoldingSourceStartsStopsItOnceStarted() {
        var machine = Self.idleMachine()
        let only = Self.attach(Self.observer(), to: &machine)  // starting
        machine.sourceHoldsTurn = true
        _ = machine.observerDetached(id: only)
        guard case .stopSource(let stop, queued: false) = machine.terminalQueued(.interrupted) else {
            Issue.record("expected the signal to end")
            return
        }
        #expect(stop == nil)
        let stops = Counter()
        let runNow = machine.sourceStarted { stops.increment() }
        runNow?()
        #expect(stops.count == 1)
    }
}

private struct TestFailure: Error {}
