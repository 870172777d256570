import FutureBridgeInternals
import TestSupport
import Testing

@testable import FutureBridge

/// The state machine on its own: events in, actions out, no threads.
@Suite struct FutureStateTests {
    typealias State = FutureState<Int>

    /// Whether an event delivered the cancel request (returned actions to run).
    func requestDue(_ actions: CancelActions?) -> Bool { actions != nil }

    @Test func callbacksAreStoredUntilCompletionThenHandedOutOnce() {
        var state = State.initial
        guard case .stored = state.addCallback(.outcome { _ in }) else {
            Issue.record("not stored")
            return
        }
        guard case .stored = state.addCallback(.outcome { _ in }) else {
            Issue.record("not stored")
            return
        }
        guard case .runCallbacks(let callbacks) = state.complete(.success(1)) else {
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
        guard case .runNow(let outcome) = state.addCallback(.outcome { _ in }) else {
            Issue.record("must run now")
            return
        }
        #expect(outcome.value == 7)
    }

    /// The short path of `succeed`: it completes only a future nothing waits for, and
    /// then exactly as `complete` would (the cancellation flags go with the pending phase;
    /// interests stay); anything else is left unchanged for the long path.
    @Test func completingWhenNothingWaitsTakesOnlyAFutureWithNothingToRun() {
        var fresh = State.initial
        fresh.interestAdded()
        fresh.interestAdded()
        _ = fresh.interestWithdrawn(cancelling: true)  // a vote, one interest still held
        var longPath = fresh
        let completed = fresh.completeIfNothingWaits(with: .success(1))
        #expect(completed)
        guard case .runCallbacks(let callbacks) = longPath.complete(.success(1)) else {
            Issue.record("the long path must complete the same state")
            return
        }
        #expect(callbacks.isEmpty)
        #expect(fresh.outcome?.value == 1 && longPath.outcome?.value == 1)
        #expect(fresh.interests == 1 && longPath.interests == 1)
        #expect(fresh.flags == longPath.flags)
        let again = fresh.completeIfNothingWaits(with: .success(2))
        #expect(!again)  // completed: refused
        #expect(fresh.outcome?.value == 1)
        guard case .alreadyCompleted = fresh.complete(.success(3)) else {
            Issue.record("a future completed on the short path must stay completed")
            return
        }

        var observed = State.initial
        _ = observed.addCallback(.outcome { _ in })
        var listed = State.initial
        listed.attach(.cancel(.run {}))
        var forwarding = State.forwarding(to: FutureStorage<Int>.pending().box)
        var bound = State.initial
        _ = bound.claimForFollowing()
        let waited: [(String, State)] = [
            ("observed", observed), ("listed", listed), ("forwarding", forwarding), ("bound", bound),
        ]
        for (name, state) in waited {
            var state = state
            let completed = state.completeIfNothingWaits(with: .success(4))
            #expect(!completed, "\(name)")
            #expect(state.outcome == nil, "\(name)")
            #expect(state.holdsNoReference == (name != "observed"), "\(name)")
        }
        guard case .runCallbacks(let callbacks) = observed.complete(.success(5)) else {
            Issue.record("the long path must still complete an observed future")
            return
        }
        #expect(Array(callbacks).count == 1)
        _ = forwarding.complete(.success(6))
        #expect(forwarding.outcome?.value == 6)
    }

    /// The moving form (what every inline handler goes through): the first callback and
    /// the listed ones are kept in order and each runs once; after completion the
    /// callback comes back with the outcome, and nothing is stored.
    @Test func movedCallbacksAreKeptInOrderAndHandedBackOnceCompleted() {
        var state = State.initial
        let log = Locked<[String]>([])
        for name in ["first", "second", "third"] {
            guard
                case .stored = state.addCallback(
                    moving: .outcome { outcome in log.withLock { $0.append("\(name) \(outcome.value ?? -1)") } })
            else {
                Issue.record("not stored")
                return
            }
        }
        guard case .runCallbacks(let callbacks) = state.complete(.success(4)) else {
            Issue.record("first completion must win")
            return
        }
        callbacks.run(with: .success(4))
        #expect(log.withLock { $0 } == ["first 4", "second 4", "third 4"])
        guard
            case .runNow(let outcome, let callback) = state.addCallback(
                moving: .outcome { _ in log.withLock { $0.append("late") } })
        else {
            Issue.record("must run now")
            return
        }
        #expect(outcome.value == 4)
        callback(outcome)
        #expect(log.withLock { $0 }.last == "late")
        guard case .alreadyCompleted = state.complete(.success(5)) else {
            Issue.record("second completion must lose")
            return
        }
    }

    /// Nothing the moving form is given outlives its use: on a derived future (whose list
    /// starts with the forwarding), the stored handlers are released once run, and a
    /// handler given to the completed future is handed back without being kept as well.
    @Test func movedCallbacksAreReleasedAndNothingIsKeptOnceCompleted() {
        let upstream = FutureStorage<Int>.pending()
        weak var weakCaptured: Counter?
        do {
            let captured = Counter()
            weakCaptured = captured
            var state = State.forwarding(to: upstream.box)
            for _ in 0..<3 {
                _ = state.addCallback(moving: .outcome { _ in captured.increment() })
            }
            #expect(state.dependency === upstream.box)
            guard case .runCallbacks(let callbacks) = state.complete(.success(1)) else {
                Issue.record("first completion must win")
                return
            }
            callbacks.run(with: .success(1))
            #expect(captured.count == 3)
            #expect(state.attachments == nil)
            guard case .runNow(let outcome, let callback) = state.addCallback(moving: .always { captured.increment() })
            else {
                Issue.record("must run now")
                return
            }
            callback(outcome)
            #expect(captured.count == 4)
            #expect(state.attachments == nil)
            #expect(state.outcome?.value == 1)
        }
        #expect(weakCaptured == nil)
    }

    @Test func plainCancelWithoutInterestsDeliversTheRequestOnce() {
        var state = State.initial
        guard case .stored = state.addCancelAction(.run {}) else {
            Issue.record("not stored")
            return
        }
        #expect(requestDue(state.cancellationRequested()) == true)
        #expect(requestDue(state.cancellationRequested()) == false)
        #expect(state.isCancellationRequested)
    }

    @Test func requestWaitsForEveryInterestToBeWithdrawn() {
        var state = State.initial
        _ = state.addCancelAction(.run {})
        state.interestAdded()
        state.interestAdded()
        #expect(requestDue(state.interestWithdrawn(cancelling: true)) == false)
        #expect(!state.isCancellationRequested)
        #expect(requestDue(state.interestWithdrawn(cancelling: true)) == true)
        #expect(state.isCancellationRequested)
    }

    @Test func plainCancelIsHeldWhileOthersHoldAnInterest() {
        var state = State.initial
        state.interestAdded()
        #expect(requestDue(state.cancellationRequested()) == false)
        // The interest holder leaves without cancelling: the earlier vote now decides.
        #expect(requestDue(state.interestWithdrawn(cancelling: false)) == true)
    }

    @Test func interestsReleasedWithoutAVoteRequestNothing() {
        var state = State.initial
        state.interestAdded()
        #expect(requestDue(state.interestWithdrawn(cancelling: false)) == false)
        #expect(!state.isCancellationRequested)
    }

    @Test func handlerAddedAfterTheRequestRunsNowAndAfterCompletionIsDiscarded() {
        var state = State.initial
        _ = state.cancellationRequested()
        guard case .runNow = state.addCancelAction(.run {}) else {
            Issue.record("must run now")
            return
        }
        _ = state.complete(.cancelled)
        guard case .discard = state.addCancelAction(.run {}) else {
            Issue.record("must discard")
            return
        }
    }

    @Test func cancellationEventsAfterCompletionDoNothing() {
        var state = State.initial
        _ = state.complete(.success(1))
        state.interestAdded()
        #expect(requestDue(state.interestWithdrawn(cancelling: true)) == false)
        #expect(requestDue(state.cancellationRequested()) == false)
        #expect(!state.isCancellationRequested)
    }

    @Test func boundStateAcceptsOnlyTheBindingCompletion() {
        var state = State.initial
        let first = state.claimForFollowing()
        let second = state.claimForFollowing()
        #expect(first)
        #expect(!second)
        guard case .alreadyCompleted = state.complete(.success(1)) else {
            Issue.record("a bound future takes only its source's outcome")
            return
        }
        guard case .runCallbacks = state.complete(.success(2), fromFollowed: true) else {
            Issue.record("the source's outcome must complete it")
            return
        }
        #expect(state.outcome?.value == 2)
    }

    @Test func forwardingCallbacksAndHandlersKeepTheirOrderAcrossARequest() {
        let log = Locked<[String]>([])
        let upstream = FutureStorage<Int>.pending()
        upstream.addInterest()
        upstream.addCancelHandler { log.withLock { $0.append("upstream") } }
        var state = State.forwarding(to: upstream.box)
        for name in ["first", "second", "third"] {
            _ = state.addCallback(.success { value in log.withLock { $0.append("\(name) \(value)") } })
        }
        guard case .stored = state.addCancelAction(.run { log.withLock { $0.append("handler") } }) else {
            Issue.record("not stored")
            return
        }
        // The request runs the forwarding first (it was registered first), then the handler.
        state.cancellationRequested()?.run()
        #expect(log.withLock { $0 } == ["upstream", "handler"])
        #expect(upstream.isCancellationRequested)
        // The callbacks were not taken by the request: completion delivers all three, in order.
        guard case .runCallbacks(let callbacks) = state.complete(.success(4)) else {
            Issue.record("first completion must win")
            return
        }
        for callback in callbacks { callback(.success(4)) }
        #expect(log.withLock { $0 } == ["upstream", "handler", "first 4", "second 4", "third 4"])
    }

    @Test func handlersAreReleasedAtCompletionAndNeverRun() {
        var state = State.initial
        let handler = Locked(0)
        _ = state.addCancelAction(.run { handler.withLock { $0 += 1 } })
        _ = state.addCallback(.always {})
        guard case .runCallbacks(let callbacks) = state.complete(.success(1)) else {
            Issue.record("first completion must win")
            return
        }
        #expect(Array(callbacks).count == 1)
        #expect(requestDue(state.cancellationRequested()) == false)
        #expect(handler.withLock { $0 } == 0)
        #expect(state.attachments == nil)
    }

    /// What ``FutureCache`` relies on: work told to stop, or that failed, is never
    /// shared with a new consumer; work that succeeded is, without an interest.
    @Test func consumerJoinsOnlyWorkThatMayStillSucceed() {
        var pending = State.initial
        guard case .joined = pending.consumerJoined(.outcome { _ in }) else {
            Issue.record("must join")
            return
        }
        #expect(pending.interests == 1)
        _ = pending.interestWithdrawn(cancelling: true)
        guard case .refused = pending.consumerJoined(.outcome { _ in }) else {
            Issue.record("a cancel request went through: must refuse")
            return
        }
        var failed = State.initial
        _ = failed.complete(.failure(TestError()))
        guard case .refused = failed.consumerJoined(.outcome { _ in }) else {
            Issue.record("must refuse")
            return
        }
        var succeeded = State.initial
        _ = succeeded.complete(.success(5))
        guard case .runNow(let outcome) = succeeded.consumerJoined(.outcome { _ in }) else {
            Issue.record("must hand out the value")
            return
        }
        #expect(outcome.value == 5)
    }

    /// A released promise: cancelled without a report only after its request was
    /// delivered and while nothing waits; failed (and reported) otherwise.
    @Test func releasedPromiseIsQuietOnlyAfterADeliveredRequestWithNothingWaiting() {
        let error = TestError()
        func released(_ state: State) -> String {
            var state = state
            switch state.promiseReleased(failingWith: error) {
            case .alreadyCompleted: return "already completed"
            case .cancelledQuietly(let callbacks):
                #expect(callbacks.isEmpty && state.outcome?.isCancelled == true)
                return "cancelled"
            case .failed:
                #expect(state.outcome?.error is TestError)
                return "failed"
            }
        }
        var requested = State.initial
        _ = requested.cancellationRequested()
        #expect(released(requested) == "cancelled")

        var awaitedAgain = requested
        awaitedAgain.interestAdded()  // a consumer arrived after the request
        var observed = requested
        _ = observed.addCallback(.outcome { _ in })  // a handler, which holds no interest
        var voteHeld = State.initial
        voteHeld.interestAdded()
        voteHeld.interestAdded()
        _ = voteHeld.interestWithdrawn(cancelling: true)  // one of two consumers left
        var givenBack = State.initial
        givenBack.interestAdded()
        _ = givenBack.interestWithdrawn(cancelling: false)  // nobody waits, nobody asked
        #expect(released(awaitedAgain) == "failed")
        #expect(released(observed) == "failed")
        #expect(released(voteHeld) == "failed")
        #expect(released(givenBack) == "failed")
        #expect(released(.initial) == "failed")

        var bound = requested
        _ = bound.claimForFollowing()
        var completed = requested
        _ = completed.complete(.success(1))
        #expect(released(bound) == "already completed")
        #expect(released(completed) == "already completed")
    }
}
