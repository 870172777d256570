import Dispatch
import FutureBridge
import FutureBridgeTesting
import TestSupport
import Testing

/// Every time API of FutureBridge, driven by a `ManualClock`: the `DispatchTimeInterval`
/// forms (every deployment target) through its timekeeper, synchronously, and the
/// `Clock` forms. Nothing sleeps.
@Suite(.timeLimit(.minutes(1)))
struct ManualTimeFormsTests {
    @Test func everyDispatchFormRunsOnOneManualTimeline() {
        let clock = ManualClock()
        let timekeeper = clock.timekeeper
        let timer = Future<Void>.after(.seconds(1), timekeeper: timekeeper)
        let delayed = Future(value: 3).delay(.seconds(2), timekeeper: timekeeper)
        let never = Promise<Int>()
        let limited = never.future.timeout(after: .seconds(3), timekeeper: timekeeper)
        let attempts = Counter()
        let retried = retry(attempts: 3, delay: .constant(interval: .seconds(2)), timekeeper: timekeeper) {
            attempts.increment()
            return Future<Int>(error: TestError(code: attempts.count))
        }
        let cache = FutureCache<String, Int>(expiresAfter: .seconds(4), timekeeper: timekeeper)
        let fetch = countingFetch()
        #expect(cache.findOrFetch("key", fetch: fetch).peek()?.value == 1)
        #expect(clock.sleeperCount == 4)

        clock.advance(byInterval: .seconds(1))
        #expect(timer.isCompleted && !delayed.isCompleted)
        clock.advance(byInterval: .seconds(1))
        #expect(delayed.peek()?.value == 3 && !limited.isCompleted)
        #expect(attempts.count == 2)
        clock.advance(byInterval: .seconds(1))
        #expect(limited.peek()?.error is TimeoutError)
        #expect(cache.findOrFetch("key", fetch: fetch).peek()?.value == 1)
        clock.advance(byInterval: .seconds(1))
        #expect(cache.findOrFetch("key", fetch: fetch).peek()?.value == 2)
        #expect(retried.peek()?.error as? TestError == TestError(code: 3))
        #expect(clock.runUntilIdle() == 0)
        #expect(clock.now.nanoseconds == 4_000_000_000)
        never.fail(TestError())
    }

    @available(ClockAPI, *)
    @Test func clockFormsWaitForTheManualClock() async throws {
        let clock = ManualClock()
        let timer = Future<Void>.after(.seconds(1), clock: clock)
        let delayed = Future(value: 1).delay(.seconds(2), clock: clock)
        let never = Promise<Int>()
        let limited = never.future.timeout(after: .seconds(3), clock: clock)
        await clock.waitForSleepers(count: 3)
        clock.advance(by: .seconds(3))
        try await timer.value
        #expect(try await delayed.value == 1)
        await #expect(throws: TimeoutError.self) { try await limited.value }
        never.fail(TestError())
    }

    @available(ClockAPI, *)
    @Test func retryWithTheClockWaitsForEachAdvance() async throws {
        let clock = ManualClock()
        let attempts = Counter()
        let result = retry(attempts: 2, delay: .constant(.seconds(5)), clock: clock) {
            attempts.increment()
            return attempts.count < 2 ? Future<Int>(error: TestError()) : Future(value: 7)
        }
        await clock.waitForSleepers(count: 1)
        #expect(attempts.count == 1)
        clock.advance(by: .seconds(5))
        #expect(try await result.value == 7)
        #expect(attempts.count == 2)
    }

    @available(ClockAPI, *)
    @Test func cacheLifetimeOnTheClock() {
        let clock = ManualClock()
        let cache = FutureCache<String, Int>(expiresAfter: .seconds(1), clock: clock)
        let fetch = countingFetch()
        #expect(cache.findOrFetch("a", fetch: fetch).peek()?.value == 1)
        clock.advance(by: .seconds(1))
        #expect(cache.findOrFetch("a", fetch: fetch).peek()?.value == 2)
    }
}

/// A cache's fetch whose value is how many times it ran.
private func countingFetch() -> (String) -> Future<Int> {
    let fetches = Counter()
    return { _ in
        fetches.increment()
        return Future(value: fetches.count)
    }
}
