import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

/// `after`, `delay`, `timeout` and `retry`, on a manual clock: nothing sleeps.
@Suite(.timeLimit(.minutes(1)))
struct FutureTimeTests {
    @available(ClockAPI, *)
    @Test func afterSucceedsOnceTheClockReachesTheDelay() async throws {
        let clock = ManualClock()
        let timer = Future<Void>.after(.seconds(5), clock: clock)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(4))
        #expect(!timer.isCompleted)
        clock.advance(by: .seconds(1))
        try await timer.value
    }

    @available(ClockAPI, *)
    @Test func cancelRequestEndsTheWait() async {
        let clock = ManualClock()
        let timer = Future<Void>.after(.seconds(5), clock: clock)
        await clock.waitForSleepers(count: 1)
        timer.requestCancellation()
        #expect(await timer.outcome.isCancelled)
        #expect(clock.sleeperCount == 0)
    }

    @available(ClockAPI, *)
    @Test func delayHoldsTheValueBackButNotAFailure() async throws {
        let clock = ManualClock()
        let delayed = Future(value: 7).delay(.seconds(2), clock: clock)
        await clock.waitForSleepers(count: 1)
        #expect(!delayed.isCompleted)
        clock.advance(by: .seconds(2))
        #expect(try await delayed.value == 7)
        #expect(Future<Int>(error: TestError()).delay(.seconds(2), clock: clock).peek()?.error is TestError)
    }

    @available(ClockAPI, *)
    @Test func timeoutFailsAndSendsACancelRequestUpstream() async {
        let clock = ManualClock()
        let slow = CancellablePromise<Int>(honour: false)
        let limited = slow.future.timeout(after: .seconds(3), clock: clock)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(3))
        #expect(await limited.outcome.error as? TimeoutError == TimeoutError(timeout: .seconds(3)))
        #expect(slow.requests.count == 1)
    }

    @available(ClockAPI, *)
    @Test func completionBeforeTheTimeoutWinsAndCancelsTheTimer() async throws {
        let clock = ManualClock()
        let fast = Promise<Int>()
        let limited = fast.future.timeout(after: .seconds(3), clock: clock)
        await clock.waitForSleepers(count: 1)
        fast.succeed(1)
        #expect(try await limited.value == 1)
        while clock.sleeperCount > 0 { await Task.yield() }  // the timer task was cancelled
    }

    @available(ClockAPI, *)
    @Test func timeoutPassesFailuresAndCancelRequestsThrough() async {
        let clock = ManualClock()
        #expect(Future<Int>(error: TestError()).timeout(after: .seconds(1), clock: clock).peek()?.error is TestError)
        let source = CancellablePromise<Int>()
        let limited = source.future.timeout(after: .seconds(1), clock: clock)
        limited.requestCancellation()
        #expect(source.requests.count == 1)
        #expect(await limited.outcome.isCancelled)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RetryTests {
    /// An operation whose first `failures` attempts fail.
    final class Flaky: Sendable {
        let attempts = Counter()
        let failures: Int
        init(failures: Int) { self.failures = failures }
        func run() -> Future<Int> {
            attempts.increment()
            return attempts.count <= failures ? Future(error: TestError(code: attempts.count)) : Future(value: 42)
        }
    }

    @Test func retriesUntilSuccess() {
        let flaky = Flaky(failures: 2)
        #expect(retry(attempts: 3) { flaky.run() }.peek()?.value == 42)
        #expect(flaky.attempts.count == 3)
    }

    @Test func givesUpWithTheLastFailure() {
        let flaky = Flaky(failures: 5)
        #expect(retry(attempts: 3) { flaky.run() }.peek()?.error as? TestError == TestError(code: 3))
        #expect(flaky.attempts.count == 3)
    }

    @Test func conditionStopsRetryingForOtherErrors() {
        let flaky = Flaky(failures: 5)
        let isWorthRetrying: @Sendable (any Error) -> Bool = { ($0 as? TestError)?.code != 2 }
        let result = retry(attempts: 5, if: isWorthRetrying) { flaky.run() }
        #expect(result.peek()?.error as? TestError == TestError(code: 2))
        #expect(flaky.attempts.count == 2)
    }

    @available(ClockAPI, *)
    @Test func waitsTheBackoffOnTheClockBetweenAttempts() async throws {
        let clock = ManualClock()
        let flaky = Flaky(failures: 2)
        let result = retry(attempts: 3, delay: .exponential(initial: .seconds(1)), clock: clock) { flaky.run() }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(999))
        #expect(flaky.attempts.count == 1)
        clock.advance(by: .milliseconds(1))
        await clock.waitForSleepers(count: 1)  // the second wait, twice as long
        #expect(flaky.attempts.count == 2)
        clock.advance(by: .seconds(2))
        #expect(try await result.value == 42)
        #expect(flaky.attempts.count == 3)
    }

    @available(ClockAPI, *)
    @Test func backoffGrowsAndStopsAtItsMaximum() {
        let delay = RetryDelay.exponential(initial: .milliseconds(100), multiplier: 3, maximum: .seconds(1))
        #expect((1...4).map(delay.nanosecondsBeforeRetry) == [100_000_000, 300_000_000, 900_000_000, 1_000_000_000])
        #expect(RetryDelay.constant(.seconds(2)).nanosecondsBeforeRetry(7) == 2_000_000_000)
    }

    @available(ClockAPI, *)
    @Test func cancelRequestDuringTheWaitStopsRetrying() async {
        let clock = ManualClock()
        let flaky = Flaky(failures: 5)
        let result = retry(attempts: 5, delay: .constant(.seconds(1)), clock: clock) { flaky.run() }
        await clock.waitForSleepers(count: 1)
        result.requestCancellation()
        #expect(await result.outcome.isCancelled)
        #expect(flaky.attempts.count == 1)
    }

    @Test func cancelRequestReachesTheAttemptInProgress() {
        let attempt = CancellablePromise<Int>()
        let result = retry(attempts: 3) { attempt.future }
        result.requestCancellation()
        #expect(attempt.requests.count == 1)
        #expect(result.peek()?.isCancelled == true)
    }

    @Test func operationRunsOnItsExecutor() {
        let executor = ManualExecutor()
        let flaky = Flaky(failures: 1)
        let result = retry(attempts: 2, on: executor.context) { flaky.run() }
        #expect(flaky.attempts.count == 0)
        executor.runAll()
        #expect(flaky.attempts.count == 2)
        #expect(result.peek()?.value == 42)
    }

    /// A million attempts at full size (`FUTUREBRIDGE_STRESS_DIVISOR=1`, as CI's stress and
    /// release steps run it); a tenth by default, which a retry that recursed per attempt
    /// would still overflow the stack with.
    @Test func aMillionImmediateRetriesDoNotGrowTheStack() {
        let attempts = stressIterations(1_000_000, atLeast: 100_000)
        let flaky = Flaky(failures: attempts - 1)
        #expect(retry(attempts: attempts) { flaky.run() }.peek()?.value == 42)
        #expect(flaky.attempts.count == attempts)
    }
}
