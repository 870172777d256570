import Testing

@testable import FutureBridge

/// The limiter's slots and queue on their own: submissions and freed slots in, the unit
/// to start out, no threads.
@Suite struct LimiterStateMachineTests {
    @Test func unitsStartWhileSlotsAreFreeThenQueue() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 2)
        let startsNow = (1...4).map { state.submitted($0) }
        #expect(startsNow == [true, true, false, false])
        #expect(state.running == 2)
        #expect(state.queuedCount == 2)
    }

    @Test func aFreedSlotGoesToTheOldestQueuedUnit() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 1)
        _ = (1...4).map { state.submitted($0) }
        let first = [state.slotFreed(), state.slotFreed()]
        #expect(first == [2, 3])
        #expect(state.running == 1)  // each freed slot was handed on, not given back
        #expect(state.queuedCount == 1)
        let last = state.slotFreed()
        #expect(last == 4)
        #expect(state.queuedCount == 0)
    }

    @Test func aSlotFreedWithNothingQueuedIsGivenBack() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 2)
        _ = (1...2).map { state.submitted($0) }
        let next = state.slotFreed()
        #expect(next == nil)
        #expect(state.running == 1)
        let startsNow = state.submitted(3)  // the slot given back is free again
        #expect(startsNow)
        #expect(state.running == 2)
    }

    @Test func aUnitQueuedAfterTheQueueEmptiedWaitsItsTurn() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 1)
        _ = (1...2).map { state.submitted($0) }
        let second = state.slotFreed()  // the queue is empty again, and reset
        let startsNow = state.submitted(3)
        let rest = [state.slotFreed(), state.slotFreed()]
        #expect(second == 2)
        #expect(!startsNow)
        #expect(rest == [3, nil])
        #expect(state.running == 0)
    }

    @Test func aMillionQueuedUnitsLeaveInOrder() {
        var state = LimiterStateMachine<Int>(maxConcurrent: 1)
        _ = state.submitted(-1)
        for unit in 0..<1_000_000 { _ = state.submitted(unit) }
        var next = 0
        while let unit = state.slotFreed() {
            guard unit == next else { break }
            next += 1
        }
        #expect(next == 1_000_000)
        #expect(state.running == 0 && state.queuedCount == 0)
    }
}
