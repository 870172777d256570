import Dispatch
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

/// A cancel request on a `retry` future: no attempt starts once it has arrived, whatever
/// ends the attempt or the wait before it, on whatever thread. The races run under
/// ThreadSanitizer in `.ci/run`.
@Suite(.timeLimit(.minutes(5)))
struct RetryCancellationTests {
    /// An attempt whose future has no cancel handler keeps going after a request (as a
    /// producer may); its failure used to start the next attempt, whose future was then
    /// cancelled and thrown away, but whose `operation` had run.
    @Test func noAttemptStartsWhenTheAttemptInProgressFailsAfterARequest() {
        let attempts = Counter()
        let first = Promise<Int>()
        let result = retry(attempts: 3) { () -> Future<Int> in
            attempts.increment()
            return attempts.count == 1 ? first.future : Future(value: 7)
        }
        result.requestCancellation()
        first.fail(TestError())
        #expect(attempts.count == 1)
        #expect(result.peek()?.isCancelled == true)
    }

    /// The next attempt was handed to its executor (the attempt before failed), and the
    /// request arrives before the executor runs it.
    @Test func noAttemptStartsWhenTheRequestArrivesBeforeTheExecutorRunsIt() {
        let executor = ManualExecutor()
        let attempts = Counter()
        let result = retry(attempts: 3, on: executor.context) { () -> Future<Int> in
            attempts.increment()
            return Future(error: TestError())
        }
        #expect(executor.runNext())  // the first attempt fails; the second is queued
        result.requestCancellation()
        executor.runAll()
        #expect(attempts.count == 1)
        #expect(result.peek()?.isCancelled == true)
    }

    /// The wait between two attempts ended (its timer fired) and the request arrives
    /// before the next attempt runs on its executor.
    @Test func noAttemptStartsWhenTheRequestArrivesAsTheWaitEnds() {
        let clock = ManualClock()
        let executor = ManualExecutor()
        let attempts = Counter()
        let result = retry(
            attempts: 3, delay: .constant(interval: .seconds(1)), timekeeper: clock.timekeeper, on: executor.context
        ) { () -> Future<Int> in
            attempts.increment()
            return Future(error: TestError())
        }
        executor.runAll()  // the first attempt fails; the wait starts
        clock.advance(byInterval: .seconds(1))  // the wait ends; the second attempt is queued
        result.requestCancellation()
        executor.runAll()
        #expect(attempts.count == 1)
        #expect(result.peek()?.isCancelled == true)
    }

    /// One retry of a race: `requestReturned` is set once `requestCancellation()` has
    /// returned, so an attempt that finds it set started after the request had arrived.
    final class Round: Sendable {
        let requestReturned = Locked(false)
        let lateAttempts = Counter()
        let attempts = Counter()

        /// The operation: the first attempt is `first`, the next ones succeed at once.
        func operation(first: Future<Int>) -> @Sendable () -> Future<Int> {
            { [self] in
                attempts.increment()
                if attempts.count == 1 { return first }
                if requestReturned.withLock({ $0 }) { lateAttempts.increment() }
                return Future(value: 7)
            }
        }

        func requestCancellation(of result: Future<Int>) {
            result.requestCancellation()
            requestReturned.withLock { $0 = true }
        }
    }

    static let threads = 4

    /// Runs `rounds` rounds in batches: in each batch, two threads end what comes before
    /// the second attempt of every round (`end`) while two others send the requests, each
    /// pair splitting the rounds between them, so that every round's two actions race.
    /// Returns the rounds, to check.
    static func race(
        rounds: Int, start: (Round) -> (result: Future<Int>, end: @Sendable () -> Void)
    ) -> [Round] {
        let batch = 1_000
        var checked: [Round] = []
        var remaining = rounds
        while remaining > 0 {
            let size = min(batch, remaining)
            remaining -= size
            let rounds = (0..<size).map { _ in Round() }
            let started = rounds.map(start)
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in stride(from: thread % 2, to: size, by: 2) {
                    spin(index % 5)
                    if thread < 2 {
                        started[index].end()
                    } else {
                        rounds[index].requestCancellation(of: started[index].result)
                    }
                }
            }
            #expect(started.allSatisfy { $0.result.isCompleted })
            checked += rounds
        }
        return checked
    }

    @Test func requestRacingTheAttemptsFailureStartsNoAttemptAfterIt() {
        let rounds = Self.race(rounds: stressIterations(100_000, atLeast: 10_000)) { round in
            let first = Promise<Int>()
            let result = retry(attempts: 3, round.operation(first: first.future))
            return (result, { first.fail(TestError()) })
        }
        #expect(rounds.reduce(0) { $0 + $1.lateAttempts.count } == 0)
        // Both orders happened: some rounds were cancelled before their second attempt.
        #expect(rounds.contains { $0.attempts.count == 1 })
    }

    @Test func requestRacingTheEndOfTheWaitStartsNoAttemptAfterIt() {
        let rounds = Self.race(rounds: stressIterations(100_000, atLeast: 10_000)) { round in
            let clock = ManualClock()
            let result = retry(
                attempts: 3, delay: .constant(interval: .seconds(1)), timekeeper: clock.timekeeper,
                round.operation(first: Future(error: TestError())))
            return (result, { clock.advance(byInterval: .seconds(1)) })
        }
        #expect(rounds.reduce(0) { $0 + $1.lateAttempts.count } == 0)
        #expect(rounds.contains { $0.attempts.count == 1 })
    }
}
