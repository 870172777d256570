import Testing

@testable import FutureBridge

/// The limiter's slots, queue and starter on their own: submissions and freed slots in,
/// the units to start and who starts them out, no threads.
@Suite struct LimiterStateMachineTests {
    /// Starts every ready unit, as the starter does; returns them in order.
    static func startReady(_ state: inout LimiterStateMachine<Int>) -> [Int] {
        var started: [Int] = []
        while let unit = state.nextToStart() { started.append(unit) }
        return started
    }

    @Test func unitsTakeFreeSlotsThenQueue() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 2)
        let becameStarter = (1...4).map { state.submitted($0) }
        #expect(becameStarter == [true, false, false, false])  // the first submitter starts both
        #expect(state.running == 2)
        #expect(state.queuedCount == 4)  // two ready, two waiting for a slot
        #expect(Self.startReady(&state) == [1, 2])
        #expect(!state.hasStarter)
        #expect(state.queuedCount == 2)
    }

    @Test func aFreedSlotGoesToTheOldestQueuedUnit() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 1)
        _ = (1...4).map { state.submitted($0) }
        _ = Self.startReady(&state)
        let becameStarter = state.slotFreed()
        #expect(becameStarter)
        #expect(Self.startReady(&state) == [2])
        #expect(state.running == 1)  // the freed slot was handed on, not given back
        _ = state.slotFreed()
        #expect(Self.startReady(&state) == [3])
        _ = state.slotFreed()
        #expect(Self.startReady(&state) == [4])
        #expect(state.queuedCount == 0)
    }

    @Test func aSlotFreedWithNothingQueuedIsGivenBack() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 2)
        _ = (1...2).map { state.submitted($0) }
        _ = Self.startReady(&state)
        let becameStarter = state.slotFreed()
        #expect(!becameStarter)
        #expect(state.running == 1)
        let startsIt = state.submitted(3)  // the slot given back is free again
        #expect(startsIt)
        #expect(Self.startReady(&state) == [3])
        #expect(state.running == 2)
    }

    /// While one thread starts units, slots freed and units submitted on other threads
    /// leave their units to it, behind the ones it has yet to start: it starts them all,
    /// in submission order, and only then stops being the starter.
    @Test func theStarterStartsWhatOthersMakeReadyInSubmissionOrder() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 2)
        _ = (1...4).map { state.submitted($0) }
        #expect(state.nextToStart() == 1)  // the starter starts 1; 2 is ready
        let freedElsewhere = state.slotFreed()  // 1 ended at once on another thread: 3 ready
        #expect(!freedElsewhere)
        let submittedElsewhere = state.submitted(5)  // queued behind 4
        #expect(!submittedElsewhere)
        let freedAgain = state.slotFreed()  // 4 ready, behind 3
        #expect(!freedAgain)
        #expect(Self.startReady(&state) == [2, 3, 4])
        #expect(!state.hasStarter)
        #expect(state.queuedCount == 1)
    }

    @Test func aUnitQueuedAfterTheQueueEmptiedWaitsItsTurn() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 1)
        _ = (1...2).map { state.submitted($0) }
        _ = Self.startReady(&state)
        _ = state.slotFreed()
        let second = Self.startReady(&state)  // the queue is empty again, and reset
        let becameStarter = state.submitted(3)
        #expect(second == [2])
        #expect(!becameStarter)
        _ = state.slotFreed()
        #expect(Self.startReady(&state) == [3])
        let last = state.slotFreed()
        #expect(!last)
        #expect(state.running == 0)
    }

    @Test func aMillionQueuedUnitsLeaveInOrder() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 1)
        _ = state.submitted(-1)
        for unit in 0..<1_000_000 { _ = state.submitted(unit) }
        _ = Self.startReady(&state)
        var next = 0
        while state.slotFreed() {
            guard let unit = state.nextToStart(), unit == next, state.nextToStart() == nil else { break }
            next += 1
        }
        #expect(next == 1_000_000)
        #expect(state.running == 0 && state.queuedCount == 0)
    }
}
