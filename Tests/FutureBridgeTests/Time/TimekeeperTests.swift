import Dispatch
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

/// The time functions' forms for every deployment target (`DispatchTimeInterval` and a
/// ``Timekeeper``), driven by a manual clock: nothing sleeps.
@Suite(.timeLimit(.minutes(1)))
struct TimekeeperTests {
    @Test func afterSucceedsOnceTheTimekeeperReachesTheDelay() {
        let clock = ManualClock()
        let timer = Future<Void>.after(.seconds(5), timekeeper: clock.timekeeper)
        clock.advance(byInterval: .seconds(4))
        #expect(!timer.isCompleted)
        clock.advance(byInterval: .seconds(1))
        #expect(timer.peek()?.value != nil)
    }

    @Test func cancelRequestEndsTheWaitAndReleasesTheTimer() {
        let clock = ManualClock()
        let timer = Future<Void>.after(.seconds(5), timekeeper: clock.timekeeper)
        #expect(clock.sleeperCount == 1)
        timer.requestCancellation()
        #expect(timer.peek()?.isCancelled == true)
        #expect(clock.sleeperCount == 0)
    }

    @Test func delayHoldsTheValueBackButNotAFailure() {
        let clock = ManualClock()
        let delayed = Future(value: 7).delay(.milliseconds(1_500), timekeeper: clock.timekeeper)
        clock.advance(byInterval: .milliseconds(1_499))
        #expect(!delayed.isCompleted)
        clock.advance(byInterval: .milliseconds(1))
        #expect(delayed.peek()?.value == 7)
        let failed = Future<Int>(error: TestError()).delay(.seconds(2), timekeeper: clock.timekeeper)
        #expect(failed.peek()?.error is TestError)
    }

    @Test func timeoutFailsWithTheIntervalAndSendsACancelRequestUpstream() {
        let clock = ManualClock()
        let slow = CancellablePromise<Int>(honour: false)
        let limited = slow.future.timeout(after: .seconds(3), timekeeper: clock.timekeeper)
        clock.advance(byInterval: .seconds(3))
        let error = limited.peek()?.error as? TimeoutError
        #expect(error == TimeoutError(interval: .seconds(3)))
        #expect(error?.nanoseconds == 3_000_000_000)
        #expect(error?.description == "timed out after 3.0 seconds")
        #expect(slow.requests.count == 1)
    }

    @Test func completionBeforeTheTimeoutCancelsTheTimer() {
        let clock = ManualClock()
        let fast = Promise<Int>()
        let limited = fast.future.timeout(after: .seconds(3), timekeeper: clock.timekeeper)
        fast.succeed(1)
        #expect(limited.peek()?.value == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func retryWaitsTheBackoffBetweenAttempts() {
        let clock = ManualClock()
        let flaky = RetryTests.Flaky(failures: 2)
        let result = retry(
            attempts: 3, delay: .exponential(initialInterval: .seconds(1)), timekeeper: clock.timekeeper
        ) { flaky.run() }
        #expect(flaky.attempts.count == 1)
        clock.advance(byInterval: .milliseconds(999))
        #expect(flaky.attempts.count == 1)
        clock.advance(byInterval: .milliseconds(1))
        #expect(flaky.attempts.count == 2)
        clock.advance(byInterval: .milliseconds(1_999))
        #expect(flaky.attempts.count == 2)
        clock.advance(byInterval: .milliseconds(1))
        #expect(result.peek()?.value == 42)
    }

    @Test func retryDelaysInBothFormsAgree() {
        let interval = RetryDelay.exponential(
            initialInterval: .milliseconds(100), multiplier: 3, maximumInterval: .seconds(1))
        #expect((1...4).map(interval.nanosecondsBeforeRetry) == [100_000_000, 300_000_000, 900_000_000, 1_000_000_000])
        #expect(RetryDelay.constant(interval: .seconds(2)).nanosecondsBeforeRetry(7) == 2_000_000_000)
        #expect(RetryDelay.custom(intervals: { .milliseconds($0) }).nanosecondsBeforeRetry(3) == 3_000_000)
        #expect(RetryDelay.none.nanosecondsBeforeRetry(1) == 0)
    }

    @Test func cacheEntriesExpireOnTheTimekeeper() {
        let clock = ManualClock()
        let cache = FutureCache<String, Int>(expiresAfter: .seconds(10), timekeeper: clock.timekeeper)
        let fetches = Counter()
        let fetch: (String) -> Future<Int> = { _ in
            fetches.increment()
            return Future(value: fetches.count)
        }
        #expect(cache.findOrFetch("a", fetch: fetch).peek()?.value == 1)
        clock.advance(byInterval: .seconds(9))
        #expect(cache.findOrFetch("a", fetch: fetch).peek()?.value == 1)
        clock.advance(byInterval: .seconds(1))
        #expect(cache.findOrFetch("a", fetch: fetch).peek()?.value == 2)
        #expect(FutureCache<String, Int>().findOrFetch("a", fetch: fetch).peek()?.value == 3)
    }

    @Test func waitWithADeadlineThatPassedReportsTheTimeout() throws {
        let pending = Promise<Int>()
        #expect(throws: TimeoutError(nanoseconds: 0)) { try pending.future.wait(deadline: .now()) }
        pending.succeed(4)
        #expect(try pending.future.wait(deadline: .now()) == 4)
    }

    @Test func dispatchTimersFireOnTheirQueue() async throws {
        let queue = DispatchQueue(label: "timers")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        // The queue is held until `map` is attached: otherwise a slow run (a sanitizer's)
        // could complete the timer first, and `map` would run inline on this thread.
        queue.suspend()
        let fired = Future<Void>.after(.milliseconds(1), timekeeper: .dispatch(on: queue))
            .map { DispatchQueue.getSpecific(key: key) == true }
        queue.resume()
        #expect(try await fired.value)
        #expect(try await Future<Void>.after(.nanoseconds(0), timekeeper: .dispatch).value == ())
    }

    /// A one-hour wait of each time function, on a dispatch timekeeper, ended early as a
    /// user ends it.
    enum EndedWait: CaseIterable {
        case afterCancelled, delayCancelled, timeoutBeaten, retryCancelled

        func run(on timekeeper: Timekeeper) {
            let hour = DispatchTimeInterval.seconds(3_600)
            switch self {
            case .afterCancelled:
                Future<Void>.after(hour, timekeeper: timekeeper).requestCancellation()
            case .delayCancelled:
                Future(value: 1).delay(hour, timekeeper: timekeeper).requestCancellation()
            case .timeoutBeaten:
                let fast = Promise<Int>()
                _ = fast.future.timeout(after: hour, timekeeper: timekeeper)
                fast.succeed(1)
            case .retryCancelled:
                retry(attempts: 2, delay: .constant(interval: hour), timekeeper: timekeeper) {
                    Future<Int>(error: TestError())
                }.requestCancellation()
            }
        }
    }

    /// Cancelling a Dispatch wait cancels its timer source, which takes it out of
    /// Dispatch's timers: a cancelled wait keeps no memory until its deadline.
    @Test(arguments: EndedWait.allCases)
    func endedDispatchWaitsCancelTheirTimers(wait: EndedWait) {
        let timers = Recorder<DispatchTimer>()
        wait.run(on: .dispatch(on: .global(), timerMade: { timers.append($0) }))
        #expect(timers.all.count == 1)
        #expect(timers.all.allSatisfy { $0.isCancelled })
    }

    /// Waits of 0 to 2 µs cancelled from four threads, twice each, while they fire: each
    /// job runs at most once, and every timer ends cancelled (fired or not).
    @Test func dispatchWaitsCancelledWhileTheyFireRunAtMostOnce() {
        let count = stressIterations(40_000, atLeast: 4_000)
        let runs = Locked([Int](repeating: 0, count: count))
        let timers = Recorder<DispatchTimer>()
        let timekeeper = Timekeeper.dispatch(on: .global(), timerMade: { timers.append($0) })
        let cancels = (0..<count).map { index in
            timekeeper.schedule(UInt64(index % 3) * 1_000) { runs.withLock { $0[index] += 1 } }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in stride(from: thread / 2, to: count, by: 2) { cancels[index]() }
        }
        #expect(timers.all.count == count)
        #expect(timers.all.allSatisfy { $0.isCancelled })
        #expect(runs.withLock { $0 }.allSatisfy { $0 <= 1 })
    }

    /// A timer that fires cancels its source before it runs the job: nothing of it is
    /// left among Dispatch's timers.
    @Test func aDispatchTimerThatFiresIsCancelled() async {
        let timers = Recorder<DispatchTimer>()
        let fired = Promise<Bool>()
        let queue = DispatchQueue(label: "TimekeeperTests.fired")
        queue.suspend()  // the job cannot run before its timer is recorded
        _ = Timekeeper.dispatch(on: queue, timerMade: { timers.append($0) }).schedule(0) {
            fired.succeed(timers.all.count == 1 && timers.all.allSatisfy { $0.isCancelled })
        }
        queue.resume()
        #expect(await fired.future.outcome.value == true)
    }

    @Test(arguments: [
        (DispatchTimeInterval.seconds(2), UInt64(2_000_000_000)),
        (.milliseconds(3), 3_000_000),
        (.microseconds(4), 4_000),
        (.nanoseconds(5), 5),
        (.seconds(-1), 0),
        (.seconds(Int.max), .max),
        (.never, .max),
    ])
    func intervalsBecomeNanoseconds(interval: DispatchTimeInterval, nanoseconds: UInt64) {
        #expect(interval.nanoseconds == nanoseconds)
    }

    @available(ClockAPI, *)
    @Test func durationsBecomeNanoseconds() {
        #expect(Duration.seconds(2).nanoseconds == 2_000_000_000)
        #expect(Duration.milliseconds(1_500).nanoseconds == 1_500_000_000)
        #expect(Duration.seconds(-1).nanoseconds == 0)
        #expect(Duration.nanoseconds(-1).nanoseconds == 0)
        #expect(Duration.seconds(Int64.max).nanoseconds == .max)
        #expect(Duration(nanoseconds: .max) == .nanoseconds(Int64.max))
        #expect(TimeoutError(timeout: .seconds(3)) == TimeoutError(interval: .seconds(3)))
        #expect(TimeoutError(nanoseconds: 1_000).timeout == .microseconds(1))
    }
}
