import Dispatch
import Foundation
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct FutureTests {
    @Test func completedFuturesHoldTheirOutcome() {
        #expect(Future(value: 2).peek()?.value == 2)
        #expect(Future<Int>(error: TestError()).peek()?.error is TestError)
        #expect(Future<Int>.cancelled.peek()?.isCancelled == true)
        #expect(Future<Int>(error: CancellationError()).peek()?.isCancelled == true)
        #expect(Future.succeeded.isCompleted)
    }

    @Test func peekDoesNotBlockOnAPendingFuture() {
        let promise = Promise<Int>()
        #expect(promise.future.peek() == nil)
        #expect(!promise.future.isCompleted)
    }

    @Test func workRunsOnItsExecutor() {
        let executor = ManualExecutor()
        let future = Future(on: executor.context) { 6 * 7 }
        #expect(future.peek() == nil)
        #expect(executor.runAll() == 1)
        #expect(future.peek()?.value == 42)
    }

    @Test func thrownErrorFailsTheFuture() {
        let future = Future<Int>(on: .inline) { throw TestError(code: 3) }
        #expect(future.peek()?.error as? TestError == TestError(code: 3))
    }

    @Test func cancelRequestBeforeTheWorkStartsSkipsIt() {
        let executor = ManualExecutor()
        let ran = Counter()
        let future = Future<Int>(on: executor.context) {
            ran.increment()
            return 1
        }
        future.requestCancellation()
        #expect(future.peek()?.isCancelled == true)
        executor.runAll()
        #expect(ran.count == 0)
    }

    @available(ClockAPI, *)
    @Test func cancelRequestWhileTheWorkRunsLetsItFinish() throws {
        let executor = ManualExecutor()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let future = Future<Int>(on: executor.context) {
            started.signal()
            proceed.wait()
            return 5
        }
        let worker = Thread { executor.runAll() }
        worker.start()
        started.wait()
        future.requestCancellation()
        proceed.signal()
        #expect(try future.wait(timeout: .seconds(60)) == 5)
    }
}
