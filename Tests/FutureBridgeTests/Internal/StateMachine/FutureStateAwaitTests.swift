import TestSupport
import Testing

@testable import FutureBridge

/// Awaiters and waiters as events of the state machine: no threads, no tasks.
@Suite struct FutureStateAwaitTests {
    typealias State = FutureState<Int>

    /// The names of the handlers `state` would run on completion, in order.
    func completionOrder(_ state: inout State, names: [String]) -> [String] {
        let ran = Recorder<String>()
        for name in names { _ = state.addCallback(.always { ran.append(name) }) }
        guard case .runCallbacks(let callbacks) = state.complete(.success(0)) else { return [] }
        for callback in callbacks { callback(.success(0)) }
        return ran.all
    }

    @Test func waiterThatLeavesIsRemovedAtOnce() {
        var state = State.initial
        let waiter = Waiter()
        #expect(state.waiterArrived(waiter) == nil)
        #expect(state.registeredCallbackCount == 1)
        #expect(state.waiterLeft(waiter) == nil)
        #expect(state.registeredCallbackCount == 0)
        #expect(state.attachments == nil)
    }

    @Test func waiterLeavingAfterTheCompletionGetsTheOutcome() {
        var state = State.initial
        let waiter = Waiter()
        _ = state.waiterArrived(waiter)
        _ = state.complete(.success(4))
        #expect(state.waiterLeft(waiter)?.value == 4)
    }

    @Test func handlersKeepTheirOrderAroundWaitersThatLeave() {
        var state = State.initial
        let first = Waiter()
        let middle = Waiter()
        _ = state.waiterArrived(first)  // in the first place
        _ = state.addCallback(.always {})
        _ = state.waiterArrived(middle)
        _ = state.waiterLeft(first)
        _ = state.waiterLeft(middle)
        #expect(state.registeredCallbackCount == 1)
        // A callback added now must run after the one registered before it.
        let order = completionOrder(&state, names: ["a", "b"])
        #expect(order == ["a", "b"])
    }

    @Test func manyWaitersLeavingInAnyOrderLeaveNothing() {
        var state = State.initial
        var waiters: [Waiter] = []
        for round in 0..<5 {
            for _ in 0..<1_000 {
                let waiter = Waiter()
                _ = state.waiterArrived(waiter)
                waiters.append(waiter)
            }
            // Oldest first, which leaves vacated places before live ones; the list drops
            // them when it is next full, and every waiter still finds its place.
            let leaving = round.isMultiple(of: 2) ? waiters.prefix(700) : waiters.suffix(700)
            for waiter in leaving { #expect(state.waiterLeft(waiter) == nil) }
            waiters.removeAll { waiter in leaving.contains { $0 === waiter } }
            #expect(state.registeredCallbackCount == waiters.count)
        }
        for waiter in waiters.reversed() { _ = state.waiterLeft(waiter) }
        #expect(state.registeredCallbackCount == 0)
        #expect(state.attachments == nil)
    }

    /// (Registered awaiters need a continuation: FutureAsyncTests covers them.)
    @Test func awaiterCancelledBeforeItRegisteredVotesAndFindsItselfCancelled() {
        var state = State.initial
        _ = state.addCancelAction(.run {})
        let awaiter = Awaiter<Int>()
        guard case .voted(let actions) = state.awaiterCancelled(awaiter) else {
            Issue.record("an awaiter that has not registered only votes")
            return
        }
        #expect(actions != nil)  // nobody else holds an interest: the request is due
        #expect(awaiter.isCancelled)
        #expect(state.registeredCallbackCount == 0)
    }
}
