import TestSupport
import Testing

@testable import FutureBridge

/// The state machine on its own: events in, actions out, no threads.
@Suite struct FutureStateTests {
    typealias State = FutureState<Int>

    /// Whether an event delivered the cancel request (returned handlers to run).
    func requestDue(_ handlers: InlineList<CancelHandler>?) -> Bool { handlers != nil }

    @Test func callbacksAreStoredUntilCompletionThenHandedOutOnce() {
        var state = State.initial
        guard case .stored = state.addCallback({ _ in }) else {
            Issue.record("not stored")
            return
        }
        guard case .stored = state.addCallback({ _ in }) else {
            Issue.record("not stored")
            return
        }
        guard case .runCallbacks(let callbacks, _) = state.complete(.success(1)) else {
            Issue.record("first completion must win")
            return
        }
        #expect(Array(callbacks).count == 2)
        guard case .alreadyCompleted = state.complete(.success(2)) else {
            Issue.record("second completion must lose")
            return
        }
        #expect(state.outcome?.value == 1)
    }

    @Test func callbackAddedAfterCompletionRunsNow() {
        var state = State.initial
        _ = state.complete(.success(7))
        guard case .runNow(let outcome) = state.addCallback({ _ in }) else {
            Issue.record("must run now")
            return
        }
        #expect(outcome.value == 7)
    }

    @Test func plainCancelWithoutInterestsDeliversTheRequestOnce() {
        var state = State.initial
        guard case .stored = state.addCancelHandler({}) else {
            Issue.record("not stored")
            return
        }
        #expect(requestDue(state.cancelRequested()) == true)
        #expect(requestDue(state.cancelRequested()) == false)
        #expect(state.isCancelRequested)
    }

    @Test func requestWaitsForEveryInterestToBeWithdrawn() {
        var state = State.initial
        _ = state.addCancelHandler({})
        state.interestAdded()
        state.interestAdded()
        #expect(requestDue(state.interestWithdrawn(cancelling: true)) == false)
        #expect(!state.isCancelRequested)
        #expect(requestDue(state.interestWithdrawn(cancelling: true)) == true)
        #expect(state.isCancelRequested)
    }

    @Test func plainCancelIsHeldWhileOthersHoldAnInterest() {
        var state = State.initial
        state.interestAdded()
        #expect(requestDue(state.cancelRequested()) == false)
        // The interest holder leaves without cancelling: the earlier vote now decides.
        #expect(requestDue(state.interestWithdrawn(cancelling: false)) == true)
    }

    @Test func interestsReleasedWithoutAVoteRequestNothing() {
        var state = State.initial
        state.interestAdded()
        #expect(requestDue(state.interestWithdrawn(cancelling: false)) == false)
        #expect(!state.isCancelRequested)
    }

    @Test func handlerAddedAfterTheRequestRunsNowAndAfterCompletionIsDiscarded() {
        var state = State.initial
        _ = state.cancelRequested()
        guard case .runNow = state.addCancelHandler({}) else {
            Issue.record("must run now")
            return
        }
        _ = state.complete(.cancelled)
        guard case .discard = state.addCancelHandler({}) else {
            Issue.record("must discard")
            return
        }
    }

    @Test func cancellationEventsAfterCompletionDoNothing() {
        var state = State.initial
        _ = state.complete(.success(1))
        state.interestAdded()
        #expect(requestDue(state.interestWithdrawn(cancelling: true)) == false)
        #expect(requestDue(state.cancelRequested()) == false)
        #expect(!state.isCancelRequested)
    }

    @Test func boundStateAcceptsOnlyTheBindingCompletion() {
        var state = State.initial
        let first = state.bind()
        let second = state.bind()
        #expect(first)
        #expect(!second)
        guard case .alreadyCompleted = state.complete(.success(1)) else {
            Issue.record("a bound future takes only its source's outcome")
            return
        }
        guard case .runCallbacks = state.complete(.success(2), fromBinding: true) else {
            Issue.record("the source's outcome must complete it")
            return
        }
        #expect(state.outcome?.value == 2)
    }
}
