import Dispatch
import Foundation
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct FutureHandlersTests {
    @Test func handlersRunForTheirOutcomeOnly() {
        let seen = Recorder<String>()
        func observe(_ future: Future<Int>) {
            future
                .onSuccess { seen.append("success \($0)") }
                .onFailure { seen.append("failure \($0)") }
                .onCancel { seen.append("cancel") }
                .always { seen.append("always") }
                .onComplete { seen.append("complete \($0)") }
        }
        observe(Future(value: 1))
        observe(Future(error: TestError()))
        observe(.cancelled)
        #expect(
            seen.all == [
                "success 1", "always", "complete success(1)",
                "failure TestError(code: 1)", "always", "complete failure(TestError(code: 1))",
                "cancel", "always", "complete cancelled",
            ])
    }

    @Test func handlersAttachedBeforeCompletionRunInOrderOnCompletion() {
        let promise = Promise<Int>()
        let seen = Recorder<Int>()
        for index in 0..<5 { promise.future.onSuccess { _ in seen.append(index) } }
        #expect(seen.all.isEmpty)
        promise.succeed(0)
        #expect(seen.all == [0, 1, 2, 3, 4])
    }

    /// The order ExecutorsAndThreads.md documents: a handler attached to a completed
    /// future runs before the call returns, unless the thread is running handlers: then
    /// it runs after the current handler and those queued before it, never nested.
    @Test func inlineHandlersAttachedInsideAHandlerRunAfterTheOthersOfItsCompletion() {
        let promise = Promise<Int>()
        let future = promise.future
        let done = Future(value: 0)
        let seen = Recorder<String>()
        future.onSuccess { _ in
            future.onSuccess { _ in seen.append("attached to the same future") }
            done.onSuccess { _ in seen.append("attached to a completed future") }
            seen.append("first returns")
        }
        future.onSuccess { _ in seen.append("second") }
        promise.succeed(1)
        #expect(
            seen.all == [
                "first returns", "second", "attached to the same future", "attached to a completed future",
            ])
        done.onSuccess { _ in seen.append("attached outside any handler") }
        #expect(seen.all.last == "attached outside any handler")
    }

    @Test func handlersRunOnTheirExecutor() {
        let executor = ManualExecutor()
        let promise = Promise<Int>()
        let seen = Recorder<String>()
        promise.future
            .onSuccess(on: executor.context) { seen.append("success \($0)") }
            .onFailure(on: executor.context) { _ in seen.append("failure") }
            .always(on: executor.context) { seen.append("always") }
        promise.succeed(3)
        #expect(seen.all.isEmpty)
        // Handlers for other outcomes are not even scheduled.
        #expect(executor.runAll() == 2)
        #expect(seen.all == ["success 3", "always"])
    }

    @Test func inlineCallbacksCompletingPromisesDoNotNest() {
        let first = Promise<Int>()
        let second = Promise<Int>()
        let seen = Recorder<String>()
        second.future.onSuccess { _ in seen.append("second handler") }
        first.future.onSuccess { _ in
            second.succeed(2)
            seen.append("first handler returns")
        }
        first.succeed(1)
        #expect(seen.all == ["first handler returns", "second handler"])
    }

    /// A handler that re-enters its own future would deadlock on the (non-recursive)
    /// mutex if handlers ran under the lock.
    @Test func handlersRunOutsideTheLockAndMayReenterTheirFuture() {
        let promise = Promise<Int>()
        let future = promise.future
        let seen = Recorder<String>()
        future.onSuccess { _ in
            seen.append("peek \(future.peek()?.value ?? -1)")
            future.onSuccess { seen.append("nested \($0)") }
            future.requestCancellation()
            seen.append("completed again? \(promise.succeed(2))")
        }
        promise.onCancellationRequest { promise in seen.append("cancel request \(promise.isCancellationRequested)") }
        promise.succeed(1)
        #expect(seen.all == ["peek 1", "completed again? false", "nested 1"])
    }

    @Test func cancelHandlersRunOutsideTheLock() {
        let promise = Promise<Int>()
        promise.onCancellationRequest { promise in
            _ = promise.isCancellationRequested
            promise.future.onCancel {}
            promise.cancel()
        }
        promise.future.requestCancellation()
        #expect(promise.future.peek()?.isCancelled == true)
    }
}
