import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

/// The transforms of `Future+Transform.swift`, on their success, failure and cancellation
/// paths.
@Suite struct FutureTransformTests {
    static let outcomes: [Outcome<Int>] = [.success(1), .failure(TestError(code: 1)), .cancelled]

    @Test(arguments: zip(outcomes, [Outcome<Int>.success(1), .failure(TestError(code: 2)), .cancelled]))
    func mapErrorReplacesFailuresOnly(outcome: Outcome<Int>, expected: Outcome<Int>) {
        #expect(Future(outcome: outcome).mapError { _ in TestError(code: 2) }.peek()?.matches(expected) == true)
    }

    @Test(arguments: zip(outcomes, [Outcome<Int>.success(1), .success(9), .cancelled]))
    func recoverTurnsAFailureIntoAValue(outcome: Outcome<Int>, expected: Outcome<Int>) {
        #expect(Future(outcome: outcome).recover { _ in 9 }.peek()?.matches(expected) == true)
    }

    @Test func recoverThatThrowsFails() {
        let recovered = Future<Int>(error: TestError(code: 1)).recover { (_) throws -> Int in throw TestError(code: 3) }
        #expect(recovered.peek()?.error as? TestError == TestError(code: 3))
    }

    @Test(arguments: zip(outcomes, [Outcome<Int>.success(1), .success(8), .cancelled]))
    func flatMapErrorFollowsTheRecoveryFuture(outcome: Outcome<Int>, expected: Outcome<Int>) {
        let recovery = Promise<Int>()
        let recovered = Future(outcome: outcome).recover { _ in recovery.future }
        let nioStyle = Future(outcome: outcome).flatMapError { _ in recovery.future }
        recovery.succeed(8)
        #expect(recovered.peek()?.matches(expected) == true)
        #expect(nioStyle.peek()?.matches(expected) == true)
    }

    @Test func flatMapErrorForwardsCancelRequestsToTheRecovery() {
        let recovery = CancellablePromise<Int>()
        let recovered = Future<Int>(error: TestError()).flatMapError { _ in recovery.future }
        recovered.requestCancellation()
        #expect(recovery.requests.count == 1)
        #expect(recovered.peek()?.isCancelled == true)
    }

    @Test func validateFailsWithTheGivenErrorWhenThePredicateRejects() {
        #expect(Future(value: 200).validate(orFailWith: TestError(code: 404)) { $0 == 200 }.peek()?.value == 200)
        let rejected = Future(value: 404).validate(orFailWith: TestError(code: 404)) { $0 == 200 }
        #expect(rejected.peek()?.error as? TestError == TestError(code: 404))
        #expect(Future<Int>.cancelled.validate(orFailWith: TestError()) { _ in false }.peek()?.isCancelled == true)
    }

    @Test(arguments: outcomes)
    func ensureRunsOnceBeforeTheOutcomePassesOn(outcome: Outcome<Int>) {
        let executor = ManualExecutor()
        let runs = Counter()
        let ensured = Future(outcome: outcome).ensure(on: executor.context) { runs.increment() }
        #expect(!ensured.isCompleted)  // waits for the clean-up
        executor.runAll()
        #expect(runs.count == 1)
        #expect(ensured.peek()?.isCancelled == outcome.isCancelled)
        #expect(ensured.peek()?.value == outcome.value)
    }

    @Test(arguments: outcomes)
    func tapSeesTheOutcomeAndPassesItOn(outcome: Outcome<Int>) {
        let seen = Recorder<String>()
        let tapped = Future(outcome: outcome).tap { seen.append("\($0)") }
        #expect(seen.all == ["\(outcome)"])
        #expect(tapped.peek().map { "\($0)" } == "\(outcome)")
    }

    @Test func asVoidKeepsTheOutcomeWithoutTheValue() {
        #expect(Future(value: 1).asVoid().peek()?.value != nil)
        #expect(Future<Int>(error: TestError()).asVoid().peek()?.error is TestError)
    }

    @Test func flattenFollowsTheInnerFuture() {
        let inner = Promise<Int>()
        let flat = Future(value: inner.future).flatten()
        #expect(!flat.isCompleted)
        inner.succeed(5)
        #expect(flat.peek()?.value == 5)
    }

    @Test func pipeCompletesThePromiseAndForwardsItsCancelRequests() {
        let source = CancellablePromise<Int>()
        let target = Promise<Int>()
        #expect(source.future.pipe(to: target))
        target.future.requestCancellation()
        #expect(source.requests.count == 1)
        #expect(target.future.peek()?.isCancelled == true)
    }

    @Test func flatMapReturningItsOwnFutureFailsInsteadOfHanging() {
        let source = Promise<Int>()
        let chain = Locked<Future<Int>?>(nil)
        let future = source.future.flatMap { _ in chain.withLock { $0! } }
        chain.withLock { $0 = future }
        source.succeed(1)
        #expect(future.peek()?.error is FutureCycleError)
    }

    @Test func promiseCompletedUsingItsOwnFutureFails() {
        let promise = Promise<Int>()
        #expect(promise.complete(using: promise.future))
        #expect(promise.future.peek()?.error is FutureCycleError)
    }
}

@Suite struct FutureYieldTests {
    @Test func inlineClosuresOfTheViewAndItsDerivedFuturesRunOnItsExecutor() {
        let executor = ManualExecutor()
        let promise = Promise<Int>()
        let seen = Recorder<String>()
        promise.future.hop(to: executor.context)
            .map { value in
                seen.append("map \(value)")
                return value * 2
            }
            .onSuccess { seen.append("success \($0)") }
        promise.succeed(1)
        #expect(seen.all.isEmpty)  // nothing ran on the completing thread
        executor.runAll()
        #expect(seen.all == ["map 1", "success 2"])
    }

    @Test func closuresAttachedAfterCompletionStillRunOnTheExecutor() {
        let executor = ManualExecutor()
        let view = Future(value: 5).hop(to: executor.context)
        let seen = Recorder<Int>()
        view.onSuccess { seen.append($0) }
        #expect(seen.all.isEmpty)
        #expect(executor.runAll() == 1)
        #expect(seen.all == [5])
    }

    @available(ClockAPI, *)
    @Test func operatorsKeepTheViewsExecutor() async {
        let executor = ManualExecutor()
        let seen = Recorder<Int>()
        let limited = Future(value: 3).hop(to: executor.context).timeout(after: .seconds(1), clock: ManualClock())
        limited.onSuccess { seen.append($0) }
        #expect(seen.all.isEmpty)
        executor.runAll()
        #expect(seen.all == [3])
    }

    @Test func explicitExecutorsStillWin() {
        let viewExecutor = ManualExecutor()
        let otherExecutor = ManualExecutor()
        let view = Future(value: 1).hop(to: viewExecutor.context)
        view.onSuccess(on: otherExecutor.context) { _ in }
        #expect(otherExecutor.pendingCount == 1)
        #expect(viewExecutor.pendingCount == 0)
    }

    @Test func theViewSharesTheFutureForCancelRequests() {
        let promise = CancellablePromise<Int>()
        promise.future.hop(to: ManualExecutor().context).requestCancellation()
        #expect(promise.requests.count == 1)
    }
}
