import FutureBridge
import FutureBridgeTesting
import TestSupport
import Testing

/// `waitForAwaiters(count:)`: knowing that tasks are suspended on a future, without
/// sleeping.
@Suite(.timeLimit(.minutes(1)))
struct WaitForAwaitersTests {
    @Test func cancellingOneOfSeveralSuspendedAwaitersAffectsItAlone() async throws {
        let promise = Promise<Int>()
        let future = promise.future
        let awaiters = (0..<3).map { _ in Task { try await future.value } }
        #expect(await future.waitForAwaiters(count: 3))
        awaiters[1].cancel()
        #expect(await awaiters[1].result.failure is CancellationError)
        #expect(await future.waitForAwaiters(count: 2))
        #expect(!future.isCompleted)
        promise.succeed(5)
        #expect(try await awaiters[0].value == 5)
        #expect(try await awaiters[2].value == 5)
    }

    @Test func cancellingEveryAwaiterRequestsCancellationUpstream() async {
        let promise = Promise<Int>()
        let requests = Counter()
        promise.onCancellationRequest { promise in
            requests.increment()
            promise.cancel()
        }
        let future = promise.future
        let awaiters = (0..<2).map { _ in Task { try await future.value } }
        await future.waitForAwaiters(count: 2)
        awaiters[0].cancel()
        #expect(requests.count == 0)
        awaiters[1].cancel()
        #expect(requests.count == 1)
        for awaiter in awaiters { #expect(await awaiter.result.failure is CancellationError) }
    }

    @Test func handlersAndBlockingWaitsAreNotAwaiters() async {
        let promise = Promise<Int>()
        promise.future.onSuccess { _ in }
        let awaiter = Task { await promise.future.outcome }
        #expect(await promise.future.waitForAwaiters(count: 1))
        promise.succeed(1)
        #expect(await awaiter.value.value == 1)
    }

    @Test func returnsFalseWhenTheFutureCompletesFirst() async {
        #expect(await Future(value: 1).waitForAwaiters(count: 1) == false)
        #expect(await Future(value: 1).waitForAwaiters(count: 0))
    }

    @Test func returnsFalseWhenTheWaitingTaskIsCancelled() async {
        let promise = Promise<Int>()
        let waiting = Task { await promise.future.waitForAwaiters(count: 1) }
        waiting.cancel()
        #expect(await waiting.value == false)
        promise.succeed(0)
    }

    @MainActor
    @Test func worksFromTheMainActorWithMainActorAwaiters() async throws {
        let promise = Promise<Int>()
        let awaiter = Task { @MainActor in try await promise.future.value }
        await promise.future.waitForAwaiters(count: 1)
        promise.succeed(2)
        #expect(try await awaiter.value == 2)
    }
}

extension Result {
    /// The error of a failure, `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
