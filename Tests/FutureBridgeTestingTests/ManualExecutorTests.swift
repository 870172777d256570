import FutureBridge
import FutureBridgeTesting
import TestSupport
import Testing

/// `ManualExecutor`: jobs run only when the test runs them, first in first out.
@Suite(.timeLimit(.minutes(1)))
struct ManualExecutorTests {
    @Test func runNextRunsOneJobInTheOrderTheyCame() {
        let executor = ManualExecutor()
        let log = Recorder<Int>()
        for number in 1...3 { executor.context.execute { log.append(number) } }
        #expect(executor.pendingCount == 3)
        #expect(log.all.isEmpty)
        #expect(executor.runNext())
        #expect(log.all == [1])
        #expect(executor.pendingCount == 2)
        #expect(executor.runNext())
        #expect(executor.runNext())
        #expect(!executor.runNext())
        #expect(log.all == [1, 2, 3])
    }

    @Test func runAllRunsTheJobsThatJobsQueue() {
        let executor = ManualExecutor()
        let log = Recorder<String>()
        executor.context.execute {
            log.append("first")
            executor.context.execute { log.append("queued by first") }
        }
        executor.context.execute { log.append("second") }
        #expect(executor.runAll() == 3)
        #expect(log.all == ["first", "second", "queued by first"])
        #expect(executor.pendingCount == 0)
        #expect(executor.runAll() == 0)
    }

    /// Each job leaves the queue in constant time: a million run within the time limit,
    /// in order (taking them from the front of an array one by one would not).
    @Test func aMillionJobsRunInOrder() {
        let executor = ManualExecutor()
        let count = stressIterations(1_000_000, atLeast: 100_000)
        let next = Counter()
        let outOfOrder = Counter()
        for index in 0..<count {
            executor.context.execute {
                if next.count != index { outOfOrder.increment() }
                next.increment()
            }
        }
        #expect(executor.pendingCount == count)
        #expect(executor.runAll() == count)
        #expect(next.count == count && outOfOrder.count == 0)
    }

    @Test func handlersAndTransformsWaitForTheTest() {
        let executor = ManualExecutor()
        let promise = Promise<Int>()
        let doubled = promise.future.map(on: executor.context) { $0 * 2 }
        let seen = Recorder<Int>()
        doubled.onSuccess(on: executor.context) { seen.append($0) }
        promise.succeed(21)
        #expect(executor.pendingCount == 1)
        #expect(!doubled.isCompleted)
        executor.runNext()
        #expect(doubled.peek()?.value == 42)
        #expect(seen.all.isEmpty)
        executor.runAll()
        #expect(seen.all == [42])
    }

    @Test func aHopRunsInlineHandlersOnTheExecutor() {
        let executor = ManualExecutor()
        let seen = Recorder<Int>()
        Future(value: 1).hop(to: executor.context).onSuccess { seen.append($0) }
        #expect(seen.all.isEmpty)
        executor.runAll()
        #expect(seen.all == [1])
    }

    @MainActor
    @Test func aMainActorTestRunsTheJobsOnTheMainActor() {
        let executor = ManualExecutor()
        let ranOnMain = Recorder<Bool>()
        // The probe: `assumeIsolated` stops the test unless the job runs on the main actor.
        executor.context.execute { ranOnMain.append(MainActor.assumeIsolated { true }) }
        executor.runAll()
        #expect(ranOnMain.all == [true])
    }
}
