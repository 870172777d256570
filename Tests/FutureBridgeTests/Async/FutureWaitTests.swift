import Dispatch
import FutureBridgeInternals
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct FutureWaitTests {
    @available(ClockAPI, *)
    @Test func waitReturnsTheValueCompletedByAnotherThread() throws {
        let promise = Promise<Int>()
        DispatchQueue.global().async { promise.succeed(8) }
        #expect(try promise.future.wait(timeout: .seconds(60)) == 8)
    }

    @available(ClockAPI, *)
    @Test func waitThrowsTheError() {
        let promise = Promise<Int>()
        DispatchQueue.global().async { promise.fail(TestError(code: 2)) }
        #expect(throws: TestError(code: 2)) { try promise.future.wait(timeout: .seconds(60)) }
    }

    @available(ClockAPI, *)
    @Test func waitThrowsCancellationErrorForACancelledFuture() {
        #expect(throws: CancellationError.self) { try Future<Int>.cancelled.wait(timeout: .zero) }
    }

    @available(ClockAPI, *)
    @Test func waitTimesOutAndLeavesTheFuturePending() {
        let promise = Promise<Int>()
        #expect(throws: TimeoutError(timeout: .milliseconds(1))) {
            try promise.future.wait(timeout: .milliseconds(1))
        }
        #expect(!promise.isCompleted)
        promise.succeed(1)
        #expect(promise.future.peek()?.value == 1)
    }

    @available(ClockAPI, *)
    @Test func waitInsideAHandlerRunsTheWorkQueuedBehindIt() throws {
        let first = Promise<Int>()
        let second = Promise<Int>()
        let third = Promise<Int>()
        // Completing `second` from inside a handler queues its handlers behind the
        // current one; `third` is completed by one of those queued handlers.
        second.future.onSuccess { third.succeed($0 + 1) }
        let waited = Locked<Int?>(nil)
        first.future.onSuccess { _ in
            second.succeed(1)
            waited.withLock { $0 = try? third.future.wait(timeout: .seconds(60)) }
        }
        first.succeed(0)
        #expect(waited.withLock { $0 } == 2)
    }

    /// A wait that timed out used to leave its callback registered until the future
    /// completed (about 268 bytes each): a future polled with timeouts grew without bound.
    @Test func millionTimedOutWaitsLeaveNothingRegistered() throws {
        let promise = Promise<Int>()
        let future = promise.future
        var timedOut = 0
        for _ in 0..<stressIterations(1_000_000, atLeast: 100_000) {
            do {
                _ = try future.wait(deadline: .now())
            } catch {
                if error is TimeoutError { timedOut += 1 }
            }
        }
        #expect(timedOut == stressIterations(1_000_000, atLeast: 100_000))
        #expect(future.registeredCallbackCount == 0)
        #expect(promise.succeed(1))
        #expect(try future.wait(deadline: .now()) == 1)
    }
}
