import Dispatch
import Foundation
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct FutureAsyncTests {
    @Test func valueOfACompletedFuture() async throws {
        #expect(try await Future(value: 3).value == 3)
        await #expect(throws: TestError.self) { try await Future<Int>(error: TestError()).value }
        await #expect(throws: CancellationError.self) { try await Future<Int>.cancelled.value }
        #expect(await Future<Int>.cancelled.outcome.isCancelled)
        #expect(try await Future(value: 4).result.get() == 4)
    }

    @Test func valueCompletedByAnotherThread() async throws {
        let promise = Promise<Int>()
        DispatchQueue.global().async { promise.succeed(11) }
        #expect(try await promise.future.value == 11)
    }

    @Test func cancelledTaskAwaitingANeverCompletingFutureResumes() async {
        weak var weakPromise: Promise<Int>?
        let promise = Promise<Int>()
        weakPromise = promise
        let future = promise.future
        let task = Task { try await future.value }
        await future.waitForAwaiters(count: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The awaiter gave its interest back; with no handler the producer keeps going.
        #expect(future.interestCount == 0)
        #expect(promise.isCancellationRequested)
        #expect(!promise.isCompleted)
        promise.succeed(1)
        _ = consume promise
        #expect(weakPromise == nil)
    }

    @Test func alreadyCancelledTaskDoesNotSuspend() async {
        let promise = Promise<Int>()
        let future = promise.future
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await future.outcome
        }.value
        #expect(outcome.isCancelled)
        #expect(future.interestCount == 0)
    }

    /// A task cancelled before its `await` counts as one cancelled while suspended:
    /// it gets `CancellationError`, and its cancel vote reaches the promise once no
    /// interest is left, now or when the last other one is withdrawn.
    @Test func alreadyCancelledTaskVotesLikeASuspendedOne() async {
        let promise = Promise<Int>()
        let requests = Counter()
        promise.onCancellationRequest { _ in requests.increment() }
        let future = promise.future
        var token: CancellationToken? = future.cancellationToken()
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await future.outcome
        }.value
        #expect(outcome.isCancelled)
        #expect(future.interestCount == 1)  // the token's; the task never registered
        #expect(requests.count == 0)
        #expect(token?.isCancelled == false)
        token = nil  // given back without asking for cancellation; the task's vote stands
        #expect(requests.count == 1)
        #expect(!promise.isCompleted)  // the handler did not cancel: the producer goes on
        promise.succeed(1)

        let alone = Promise<Int>()
        alone.cancelOnRequest {}
        let cancelled = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await alone.future.outcome
        }.value
        #expect(cancelled.isCancelled)
        #expect(alone.future.peek()?.isCancelled == true)  // the only interest: requested at once
    }

    /// A task holds no interest before it suspends on the future: a request made
    /// before then reaches the producer at once, and the task awaits as usual.
    @Test func requestBeforeTheTaskAwaitsReachesTheProducer() async throws {
        let promise = Promise<Int>()
        let requests = Counter()
        promise.onCancellationRequest { _ in requests.increment() }
        let future = promise.future
        let gate = Promise<Void>()
        let task = Task {
            try await gate.future.value
            return try await future.value
        }
        await gate.future.waitForAwaiters(count: 1)
        future.requestCancellation()
        #expect(requests.count == 1)
        gate.succeed()
        await future.waitForAwaiters(count: 1)
        promise.succeed(7)  // the handler ignored the request
        #expect(try await task.value == 7)
    }

    @Test func alreadyCompletedFutureGivesItsValueEvenToACancelledTask() async throws {
        let value = try await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Future(value: 5).value
        }.value
        #expect(value == 5)
    }

    /// A cancelled awaiter used to stay registered until the future completed (about 128
    /// bytes each, on a future that may live as long as the app).
    @Test func millionCancelledAwaitersLeaveNothingRegistered() async {
        let promise = Promise<Int>()
        let future = promise.future
        let batch = 1_000
        var leftOver = 0
        let rounds = stressIterations(1_000_000, atLeast: 100_000) / batch
        for round in 0..<rounds {
            if stoppedByItsTimeLimit(after: "\(round) of \(rounds) batches") {
                promise.succeed(1)
                return
            }
            let tasks = (0..<batch).map { _ in Task { await future.outcome } }
            await future.waitForAwaiters(count: batch)
            for task in tasks { task.cancel() }
            for task in tasks where await !task.value.isCancelled { leftOver += 1 }
            leftOver += future.registeredCallbackCount + future.interestCount
        }
        #expect(leftOver == 0)
        #expect(future.registeredCallbackCount == 0)
        #expect(promise.isCancellationRequested)
        promise.succeed(1)
    }

    /// `count` tasks awaiting one promise's future, all registered, and a counter of the
    /// cancel requests the producer receives.
    func awaiters(_ count: Int) async -> (Promise<Int>, Counter, [Task<Int, any Error>]) {
        let promise = Promise<Int>()
        let requests = Counter()
        promise.onCancellationRequest { _ in requests.increment() }
        let future = promise.future
        let tasks = (0..<count).map { _ in Task { try await future.value } }
        await future.waitForAwaiters(count: count)
        return (promise, requests, tasks)
    }

    @Test func halfOfTenThousandAwaitersCancelledLeavesTheProducerAlone() async throws {
        let count = stressIterations(10_000)
        let (promise, requests, tasks) = await awaiters(count)
        for (index, task) in tasks.enumerated() where index.isMultiple(of: 2) { task.cancel() }
        var cancelled = 0
        for (index, task) in tasks.enumerated() where index.isMultiple(of: 2) {
            if Outcome(await task.result).isCancelled { cancelled += 1 }
        }
        #expect(cancelled == (count + 1) / 2)
        #expect(requests.count == 0)
        promise.succeed(9)
        var values = 0
        for (index, task) in tasks.enumerated() where !index.isMultiple(of: 2) {
            if try await task.value == 9 { values += 1 }
        }
        #expect(values == count / 2)
        #expect(requests.count == 0)
    }

    @Test func allOfTenThousandAwaitersCancelledSendExactlyOneRequest() async {
        let count = stressIterations(10_000)
        let (promise, requests, tasks) = await awaiters(count)
        for task in tasks { task.cancel() }
        var cancelled = 0
        for task in tasks where Outcome(await task.result).isCancelled { cancelled += 1 }
        #expect(cancelled == count)
        #expect(requests.count == 1)
        #expect(!promise.isCompleted)  // the producer kept going: no handler completed it
    }

    @Test func awaitersRacingCompletionAndCancellationResumeExactlyOnce() async {
        let iterations = stressIterations(2_000)
        for iteration in 0..<iterations {
            if stoppedByItsTimeLimit(after: "\(iteration) of \(iterations) rounds") { return }
            let promise = Promise<Int>()
            let future = promise.future
            let task = Task { await future.outcome }
            startOnAnotherThread { promise.succeed(1) }
            task.cancel()
            let outcome = await task.value
            #expect(outcome.value == 1 || outcome.isCancelled)
        }
    }

    @Test func asyncOperationCompletesTheFuture() async throws {
        let future = Future { () async in 21 * 2 }
        #expect(try await future.value == 42)
        let failing = Future<Int> { throw TestError() }
        #expect(await failing.outcome.error is TestError)
        let cancelling = Future<Int> { throw CancellationError() }
        #expect(await cancelling.outcome.isCancelled)
    }

    @Test func cancelRequestCancelsTheOperationsTask() async {
        let started = Promise<Void>()
        let sawCancellation = Locked(false)
        let never = Promise<Int>()
        let future = Future<Int> {
            started.succeed()
            do {
                return try await never.future.value
            } catch {
                sawCancellation.withLock { $0 = Task.isCancelled }
                throw error
            }
        }
        try? await started.future.value
        future.requestCancellation()
        #expect(await future.outcome.isCancelled)
        #expect(sawCancellation.withLock { $0 })
        never.succeed(0)
    }

    @Test func requestBeforeCompleteRunningCancelsTheTaskBeforeTheOperationRuns() async {
        for _ in 0..<200 {
            let promise = Promise<Int>()
            promise.future.requestCancellation()
            let sawCancellation = Locked<Bool?>(nil)
            promise.complete {
                sawCancellation.withLock { $0 = Task.isCancelled }
                try Task.checkCancellation()
                return 1
            }
            #expect(await promise.future.outcome.isCancelled)
            #expect(sawCancellation.withLock { $0 } == true)
        }
    }

    /// Two threads ask for cancellation and two call `complete(running:)`, on the same
    /// promises in the same order. A request that had returned before a call began is seen
    /// by the operation's first line; any request, whenever it comes, ends the future
    /// cancelled (the operation waits for a future that never completes).
    @Test func cancelRequestRacingCompleteRunningIsNeverLost() async {
        let rounds = stressIterations(100_000, atLeast: 10_000)
        let never = Promise<Int>()
        let startedUncancelledAfterRequest = Counter()
        let batch = 1_000
        var remaining = rounds
        while remaining > 0 {
            let size = min(batch, remaining)
            remaining -= size
            let promises = (0..<size).map { _ in Promise<Int>() }
            let requested = Locked([Bool](repeating: false, count: size))
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for (index, promise) in promises.enumerated() {
                    if thread.isMultiple(of: 2) {
                        promise.future.requestCancellation()
                        requested.withLock { $0[index] = true }
                    } else {
                        let requestedBefore = requested.withLock { $0[index] }
                        promise.complete {
                            if requestedBefore && !Task.isCancelled { startedUncancelledAfterRequest.increment() }
                            return try await never.future.value
                        }
                    }
                }
            }
            var notCancelled = 0
            for promise in promises where await !promise.future.outcome.isCancelled { notCancelled += 1 }
            #expect(notCancelled == 0)
        }
        #expect(startedUncancelledAfterRequest.count == 0)
    }

    @Test func promiseCompletedByAnAsyncOperation() async throws {
        let promise = Promise<Int>()
        #expect(promise.complete { () async in 7 })
        #expect(!promise.succeed(1))
        #expect(try await promise.future.value == 7)

        let done = Promise<Int>()
        done.succeed(1)
        let ran = Counter()
        #expect(
            !done.complete {
                ran.increment()
                return 2
            })
        #expect(ran.count == 0)
    }

    @Test func cancellingTheTaskAwaitingAMappedFutureReachesTheRoot() async {
        let root = Promise<Int>()
        let requests = Counter()
        root.onCancellationRequest { promise in
            requests.increment()
            promise.cancel()
        }
        let mapped = root.future.map { $0 + 1 }
        let task = Task { await mapped.outcome }
        await mapped.waitForAwaiters(count: 1)
        task.cancel()
        #expect(await task.value.isCancelled)
        #expect(requests.count == 1)
        #expect(root.future.peek()?.isCancelled == true)
    }
}
