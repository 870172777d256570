import Dispatch
import Foundation
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

    /// One retry of a race. `requestReturned` is set once `requestCancellation()` has
    /// returned; `endedAfterRequest` when the thread that ends the first attempt (or the
    /// wait) found it set before it did: then the request had arrived before anything
    /// could start the second attempt, and `operation` must not run again. (An attempt
    /// whose start was decided before the request arrived may run: the request then
    /// travels to it.)
    final class Round: Sendable {
        let requestReturned = Locked(false)
        let endedAfterRequest = Locked(false)
        let attempts = Counter()

        /// The operation: the first attempt is `first`, the next ones succeed at once.
        func operation(first: Future<Int>) -> @Sendable () -> Future<Int> {
            { [self] in
                attempts.increment()
                return attempts.count == 1 ? first : Future(value: 7)
            }
        }

        func requestCancellation(of result: Future<Int>) {
            result.requestCancellation()
            requestReturned.withLock { $0 = true }
        }

        func end(_ body: () -> Void) {
            if requestReturned.withLock({ $0 }) { endedAfterRequest.withLock { $0 = true } }
            body()
        }

        /// The request had arrived before the attempt or the wait ended, and yet another
        /// attempt started.
        var startedAfterTheRequest: Bool {
            endedAfterRequest.withLock { $0 } && attempts.count > 1
        }
    }

    static let threads = 4

    /// Runs `rounds` rounds in batches: in each batch, two threads end what comes before
    /// the second attempt of every round (`end`) while two others send the requests, each
    /// pair splitting the rounds between them, so that every round's two actions race.
    /// Returns the rounds, to check. The threads are waited for off the test's task: a
    /// thread of the cooperative pool blocked for the whole race would starve the tests that
    /// run beside it (two races blocked both of this machine's two).
    static func race(
        rounds: Int, start: (Round) -> (result: Future<Int>, end: @Sendable () -> Void)
    ) async -> [Round] {
        let batch = 1_000
        var checked: [Round] = []
        var remaining = rounds
        while remaining > 0 {
            let size = min(batch, remaining)
            remaining -= size
            let rounds = (0..<size).map { _ in Round() }
            let started = rounds.map(start)
            // Threads of their own (concurrentPerform runs four iterations on two cores
            // two after two), released together.
            await onAnotherThread {
                let go = DispatchSemaphore(value: 0)
                let done = DispatchGroup()
                for thread in 0..<threads {
                    done.enter()
                    Thread {
                        go.wait()
                        for index in stride(from: thread % 2, to: size, by: 2) {
                            // Pauses that differ between the two threads of a round, so that
                            // either may act first.
                            spin(thread < 2 ? (index % 4) * 40 : (index % 5) * 30)
                            if thread < 2 {
                                rounds[index].end(started[index].end)
                            } else {
                                rounds[index].requestCancellation(of: started[index].result)
                            }
                        }
                        done.leave()
                    }.start()
                }
                for _ in 0..<threads { go.signal() }
                done.wait()
            }
            #expect(started.allSatisfy { $0.result.isCompleted })
            checked += rounds
        }
        return checked
    }

    @Test func requestRacingTheAttemptsFailureStartsNoAttemptAfterIt() async {
        let rounds = await Self.race(rounds: stressIterations(100_000, atLeast: 10_000)) { round in
            let first = Promise<Int>()
            let result = retry(attempts: 3, round.operation(first: first.future))
            return (result, { first.fail(TestError()) })
        }
        #expect(rounds.filter(\.startedAfterTheRequest).count == 0)
        // The order that matters happened: some requests returned before the failure.
        #expect(rounds.contains { $0.endedAfterRequest.withLock { $0 } })
    }

    @Test func requestRacingTheEndOfTheWaitStartsNoAttemptAfterIt() async {
        let rounds = await Self.race(rounds: stressIterations(100_000, atLeast: 10_000)) { round in
            let clock = ManualClock()
            let result = retry(
                attempts: 3, delay: .constant(interval: .seconds(1)), timekeeper: clock.timekeeper,
                round.operation(first: Future(error: TestError())))
            return (result, { clock.advance(byInterval: .seconds(1)) })
        }
        #expect(rounds.filter(\.startedAfterTheRequest).count == 0)
        #expect(rounds.contains { $0.endedAfterRequest.withLock { $0 } })
    }
}
