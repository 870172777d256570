import Dispatch
import FutureBridge
import FutureBridgeTesting
import TestSupport
import Testing

/// `ManualClock`: time moves only when the test says; nothing sleeps.
@Suite(.timeLimit(.minutes(1)))
struct ManualClockTests {
    /// A timer on `clock`'s timekeeper that records `name` when it fires.
    private func schedule(_ name: String, after nanoseconds: Int, on clock: ManualClock, into log: Recorder<String>) {
        clock.timekeeper.run(after: nanoseconds) { log.append(name) }
    }

    @Test func jobsWakeInDeadlineOrderThenInTheOrderTheyWereScheduled() {
        let clock = ManualClock()
        let log = Recorder<String>()
        schedule("c", after: 3, on: clock, into: log)
        schedule("a", after: 1, on: clock, into: log)
        schedule("b1", after: 2, on: clock, into: log)
        schedule("b2", after: 2, on: clock, into: log)
        #expect(clock.nextDeadline == ManualClock.Instant(nanoseconds: 1))
        clock.advance(byNanoseconds: 10)
        #expect(log.all == ["a", "b1", "b2", "c"])
        #expect(clock.now == ManualClock.Instant(nanoseconds: 10))
        #expect(clock.sleeperCount == 0)
        #expect(clock.nextDeadline == nil)
    }

    /// 200,000 jobs, scheduled latest first and half of them cancelled, still wake in
    /// deadline order, each taken in O(log n) (a scan of every waiting job per wake, 10^10
    /// steps here, would run out the time limit).
    @Test func manyJobsWakeInDeadlineOrder() {
        let clock = ManualClock()
        let count = stressIterations(200_000, atLeast: 20_000)
        let woken = Counter()
        let outOfOrder = Counter()
        var cancelled: [Future<Void>] = []
        for index in (0..<count).reversed() {
            let timer = clock.timekeeper.run(after: index) {
                if clock.now.nanoseconds != UInt64(index) { outOfOrder.increment() }
                woken.increment()
            }
            if index % 2 == 1 { cancelled.append(timer) }
        }
        for timer in cancelled { timer.requestCancellation() }
        #expect(clock.sleeperCount == count / 2)
        #expect(clock.runUntilIdle() == count / 2)
        #expect(woken.count == count / 2 && outOfOrder.count == 0)
        #expect(clock.nextDeadline == nil)
    }

    /// Timeouts that are nearly all cancelled (work that finishes first): the clock keeps
    /// heap entries for what waits, not for every job ever scheduled, and what stays
    /// still wakes in deadline order.
    @Test func cancelledJobsDoNotAccumulate() {
        let clock = ManualClock()
        let count = stressIterations(200_000, atLeast: 20_000)
        let woken = Counter()
        let outOfOrder = Counter()
        var mostEntries = 0
        for index in 0..<count {
            let deadline = 1_000_000_000 - index
            let timer = clock.timekeeper.run(after: deadline) {
                if clock.now.nanoseconds != UInt64(deadline) { outOfOrder.increment() }
                woken.increment()
            }
            if index % 100 != 0 { timer.requestCancellation() }
            mostEntries = max(mostEntries, clock.heapEntryCount)
        }
        let live = (count + 99) / 100
        #expect(clock.sleeperCount == live)
        #expect(mostEntries <= 2 * live + 64)
        #expect(clock.runUntilIdle() == live)
        #expect(woken.count == live && outOfOrder.count == 0)
    }

    @Test func advanceToStepsThroughDeadlinesSoAJobsFollowerMeasuresFromItsDeadline() {
        let clock = ManualClock()
        let times = Recorder<UInt64>()
        let timekeeper = clock.timekeeper
        timekeeper.run(after: 5) {
            times.append(clock.now.nanoseconds)
            timekeeper.run(after: 5) { times.append(clock.now.nanoseconds) }
        }
        clock.advance(to: ManualClock.Instant(nanoseconds: 9))
        #expect(times.all == [5])
        #expect(clock.now.nanoseconds == 9)
        clock.advance(to: ManualClock.Instant(nanoseconds: 10))
        #expect(times.all == [5, 10])
    }

    @Test func advanceToAnEarlierInstantNeverMovesTimeBack() {
        let clock = ManualClock()
        clock.advance(byNanoseconds: 100)
        let log = Recorder<String>()
        schedule("now", after: 0, on: clock, into: log)
        clock.advance(to: ManualClock.Instant(nanoseconds: 50))
        #expect(clock.now.nanoseconds == 100)
        #expect(log.all == ["now"])
    }

    @Test func runUntilIdleWakesEverythingIncludingWhatTheJobsSchedule() {
        let clock = ManualClock()
        let timekeeper = clock.timekeeper
        let ran = Counter()
        @Sendable func chain(_ remaining: Int) {
            ran.increment()
            if remaining > 0 { timekeeper.run(after: 1_000) { chain(remaining - 1) } }
        }
        timekeeper.run(after: 1_000) { chain(3) }
        #expect(clock.runUntilIdle() == 4)
        #expect(ran.count == 4)
        #expect(clock.now.nanoseconds == 4_000)
        #expect(clock.runUntilIdle() == 0)
    }

    @Test func cancellingAJobRemovesItAtOnce() {
        let clock = ManualClock()
        let ran = Counter()
        let timer = clock.timekeeper.run(after: 10) { ran.increment() }
        #expect(clock.sleeperCount == 1)
        timer.requestCancellation()
        #expect(clock.sleeperCount == 0)
        clock.advance(byNanoseconds: 10)
        #expect(ran.count == 0)
    }

    @available(ClockAPI, *)
    @Test func sleepersWakeOnlyOnceTimeReachesTheirDeadlines() async throws {
        let clock = ManualClock()
        let early = Task { try await clock.sleep(for: .seconds(1)) }
        let late = Task { try await clock.sleep(for: .seconds(2)) }
        await clock.waitForSleepers(count: 2)
        #expect(clock.nextDeadline == ManualClock.Instant(nanoseconds: 1_000_000_000))
        clock.advance(by: .seconds(1))
        try await early.value
        #expect(clock.sleeperCount == 1)
        clock.advance(to: clock.now.advanced(by: .seconds(1)))
        try await late.value
        #expect(clock.sleeperCount == 0)
    }

    @available(ClockAPI, *)
    @Test func aCancelledSleeperLeavesAtOnceWithoutTimeMoving() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(count: 1)
        sleeper.cancel()
        #expect(await sleeper.result.failure is CancellationError)
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.nanoseconds == 0)
    }

    @available(ClockAPI, *)
    @Test func aTaskCancelledBeforeItSleepsThrowsWithoutWaiting() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        #expect(await sleeper.result.failure is CancellationError)
        #expect(clock.sleeperCount == 0)
    }

    @available(ClockAPI, *)
    @Test func aDeadlineAlreadyReachedReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: ManualClock.Instant(nanoseconds: 1))
        #expect(clock.sleeperCount == 0)
    }

    @available(ClockAPI, *)
    @Test func instantsMeasureDurationsBothWaysAndSaturate() {
        let start = ManualClock.Instant(nanoseconds: 1_000)
        #expect(start.advanced(by: .nanoseconds(-5_000)).nanoseconds == 0)
        #expect(start.advanced(by: .nanoseconds(500)).nanoseconds == 1_500)
        #expect(ManualClock.Instant(nanoseconds: .max).advanced(by: .seconds(1)).nanoseconds == .max)
        #expect(start.duration(to: ManualClock.Instant(nanoseconds: 400)) == .nanoseconds(-600))
        #expect(start.duration(to: ManualClock.Instant(nanoseconds: 3_000)) == .nanoseconds(2_000))
    }

    @Test func waitForSleepersGivesUpWhenItsTaskIsCancelled() async {
        let clock = ManualClock()
        let waiting = Task { await clock.waitForSleepers(count: 1) }
        waiting.cancel()
        #expect(await waiting.value == false)
    }
}

extension Timekeeper {
    /// A timer that runs `job` after `nanoseconds`, through the public `Future.after`.
    @discardableResult
    fileprivate func run(after nanoseconds: Int, _ job: @escaping @Sendable () -> Void) -> Future<Void> {
        let timer = Future<Void>.after(.nanoseconds(nanoseconds), timekeeper: self)
        timer.onSuccess { job() }
        return timer
    }
}
