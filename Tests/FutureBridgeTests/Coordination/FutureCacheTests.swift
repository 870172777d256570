import Dispatch
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct FutureCacheTests {
    @Test func thousandConcurrentRequestersShareOneFetch() {
        let cache = FutureCache<String, Int>()
        let fetches = Counter()
        let source = Promise<Int>()
        let requests = Locked([Future<Int>]())
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
            let future = cache.findOrFetch("key") { _ in
                fetches.increment()
                return source.future
            }
            requests.withLock { $0.append(future) }
        }
        source.succeed(7)
        #expect(fetches.count == 1)
        #expect(requests.withLock { $0 }.allSatisfy { $0.peek()?.value == 7 })
    }

    @available(ClockAPI, *)
    @Test func successIsCachedUntilItExpires() async {
        let clock = ManualClock()
        let cache = FutureCache<Int, Int>(expiresAfter: .seconds(10), clock: clock)
        let fetches = Counter()
        let fetch: (Int) -> Future<Int> = { key in
            fetches.increment()
            return Future(value: key * fetches.count)
        }
        #expect(cache.findOrFetch(2, fetch: fetch).peek()?.value == 2)
        clock.advance(by: .seconds(9))
        #expect(cache.findOrFetch(2, fetch: fetch).peek()?.value == 2)
        clock.advance(by: .seconds(1))
        #expect(cache.findOrFetch(2, fetch: fetch).peek()?.value == 4)
        #expect(fetches.count == 2)
    }

    @Test func failuresAndCancellationsEvict() {
        let cache = FutureCache<Int, Int>()
        #expect(cache.findOrFetch(1) { _ in Future(error: TestError()) }.peek()?.error is TestError)
        #expect(cache.findOrFetch(1) { _ in .cancelled }.peek()?.isCancelled == true)
        #expect(cache.findOrFetch(1) { _ in throw TestError() }.peek()?.error is TestError)
        #expect(cache.count == 0)
        #expect(cache.findOrFetch(1) { _ in Future(value: 3) }.peek()?.value == 3)
        #expect(cache.count == 1)
    }

    @Test func oneRequesterCancellingLeavesTheSharedFetchAlone() {
        let cache = FutureCache<Int, Int>()
        let fetch = CancellablePromise<Int>()
        let first = cache.findOrFetch(1) { _ in fetch.future }
        let second = cache.findOrFetch(1) { _ in Future(value: -1) }
        first.requestCancellation()
        #expect(fetch.requests.count == 0)
        #expect(first.peek()?.isCancelled == true)  // its own view ends; the fetch goes on
        second.requestCancellation()
        #expect(fetch.requests.count == 1)  // nobody wants it any more
        #expect(cache.count == 0)  // the cancelled fetch was evicted
    }

    /// A requester arriving while the fetch was being cancelled (every other requester
    /// had withdrawn) used to join it and end cancelled although it never cancelled.
    @Test func requestersThatDoNotCancelNeverEndCancelled() {
        let rounds = stressIterations(100_000, atLeast: 10_000)
        let cache = FutureCache<Int, Int>()
        let wronglyCancelled = Counter()
        let fetches = Locked([Promise<Int>]())
        for round in 0..<rounds {
            let kept = Locked([Future<Int>]())
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                let future = cache.findOrFetch(round) { _ in
                    let fetch = Promise<Int>()
                    fetch.onCancellationRequest { $0.cancel() }
                    fetches.withLock { $0.append(fetch) }
                    return fetch.future
                }
                if thread.isMultiple(of: 2) {
                    future.requestCancellation()
                } else {
                    kept.withLock { $0.append(future) }
                }
            }
            for fetch in fetches.withLock({ fetches in
                defer { fetches.removeAll() }
                return fetches
            }) {
                fetch.succeed(round)
            }
            for future in kept.withLock({ $0 }) where future.peek()?.value != round { wronglyCancelled.increment() }
        }
        #expect(wronglyCancelled.count == 0)
    }

    /// What `findOrFetch` documents: a fetch that got its cancel request is replaced by a
    /// new one while it is still running, and each ends for its own requesters.
    @Test func fetchThatGotItsCancelRequestIsReplacedBeforeItHasFinished() {
        let cache = FutureCache<Int, Int>()
        let stubborn = CancellablePromise<Int>(honour: false)  // keeps going after the request
        let first = cache.findOrFetch(1) { _ in stubborn.future }
        first.requestCancellation()
        #expect(stubborn.requests.count == 1 && !stubborn.promise.isCompleted)
        let fresh = Promise<Int>()
        let fetches = Counter()
        let second = cache.findOrFetch(1) { _ in
            fetches.increment()
            return fresh.future
        }
        #expect(fetches.count == 1)  // two fetches for key 1 in flight now
        stubborn.promise.succeed(1)  // the replaced fetch ends: nothing changes for the key
        #expect(cache.count == 1 && second.peek() == nil)
        fresh.succeed(2)
        #expect(first.peek()?.isCancelled == true && second.peek()?.value == 2)
        #expect(cache.findOrFetch(1) { _ in Future(value: 3) }.peek()?.value == 2)
    }

    @Test func removedEntryIsFetchedAgain() {
        let cache = FutureCache<Int, Int>()
        _ = cache.findOrFetch(1) { _ in Future(value: 1) }
        cache.remove(1)
        #expect(cache.findOrFetch(1) { _ in Future(value: 2) }.peek()?.value == 2)
        cache.removeAll()
        #expect(cache.count == 0)
    }
}

@Suite struct FutureBatchTests {
    @Test func collectKeepsEveryChildsOutcome() {
        let pending = Promise<Int>()
        let batch = FutureBatch([Future(value: 1), Future(error: TestError()), pending.future])
        #expect(!batch.outcomes.isCompleted)
        pending.succeed(3)
        let outcomes = batch.outcomes.peek()?.value ?? []
        #expect(outcomes.map(\.value) == [1, nil, 3])
        #expect(batch.values.peek()?.error is TestError)
    }

    @Test func failFastFailsAtTheFirstFailureAndCancelsThePendingChildren() {
        let pending = CancellablePromise<Int>(honour: false)
        let failing = Promise<Int>()
        let batch = FutureBatch([pending.future, failing.future], policy: .failFast)
        failing.fail(TestError())
        #expect(batch.outcomes.peek()?.error is TestError)
        #expect(pending.requests.count == 1)
    }

    @Test func onEachCompleteGivesTheIndexOfEachChild() {
        let promises = (0..<3).map { _ in Promise<String>() }
        let seen = Recorder<String>()
        FutureBatch(promises.map(\.future)).onEachComplete { index, outcome in
            seen.append("\(index):\(outcome.value ?? "-")")
        }
        promises[2].succeed("c")
        promises[0].succeed("a")
        promises[1].cancel()
        #expect(seen.all == ["2:c", "0:a", "1:-"])
    }

    @Test func cancelReachesEveryPendingChild() {
        let children = (0..<3).map { _ in CancellablePromise<Int>() }
        let batch = FutureBatch(children.map(\.future))
        batch.requestCancellation()
        #expect(children.map(\.requests.count) == [1, 1, 1])
        #expect(batch.outcomes.peek()?.value?.allSatisfy(\.isCancelled) == true)
    }
}
