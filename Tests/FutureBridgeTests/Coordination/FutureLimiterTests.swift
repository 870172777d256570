import Dispatch
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct FutureLimiterTests {
    /// Work whose futures the test completes by hand, recording how many run at once.
    final class Workload: Sendable {
        let promises: [Promise<Int>]
        let started = Recorder<Int>()
        private let running = Locked((now: 0, most: 0))

        init(count: Int) { promises = (0..<count).map { _ in Promise<Int>() } }

        /// Captures what it uses, not the workload: a handler on one of the workload's own
        /// promises that held the workload would keep it alive while that promise pends.
        func work(_ index: Int) -> @Sendable () -> Future<Int> {
            { [started, running, promise = promises[index]] in
                started.append(index)
                running.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                return promise.future.always { running.withLock { $0.now -= 1 } }
            }
        }

        var mostAtOnce: Int { running.withLock { $0.most } }
    }

    /// A unit's handlers used to run after the next unit had started: completing the
    /// unit's future started the next one from inside the callbacks, before the unit's
    /// own handlers, queued behind them, had run.
    @Test(arguments: [1, 2])
    func handlersOfAUnitRunBeforeTheNextUnitStarts(maxConcurrent: Int) {
        let limiter = FutureLimiter(maxConcurrent: maxConcurrent)
        let log = Recorder<String>()
        let units = (0..<maxConcurrent).map { _ in Promise<Int>() }
        for (index, unit) in units.enumerated() {
            limiter.add { unit.future }.onSuccess { _ in log.append("\(index) handled") }
        }
        _ = limiter.add {
            log.append("next started")
            return Future(value: 0)
        }
        units[0].succeed(0)
        #expect(log.all == ["0 handled", "next started"])
        for unit in units.dropFirst() { unit.succeed(0) }
    }

    @Test func handlerOnTheNextUnitsSerialExecutorRunsBeforeIt() {
        let fifo = FutureFIFO()
        let executor = ManualExecutor()
        let log = Recorder<String>()
        let first = Promise<Int>()
        fifo.add { first.future }.onSuccess(on: executor.context) { _ in log.append("1 handled") }
        _ = fifo.add(on: executor.context) {
            log.append("2 started")
            return Future(value: 2)
        }
        executor.context.execute { first.succeed(1) }  // completed on the executor itself
        executor.runAll()
        #expect(log.all == ["1 handled", "2 started"])
    }

    @Test func unitCompletedOnAnotherThreadHasItsInlineHandlersRunBeforeTheNext() throws {
        let fifo = FutureFIFO()
        let log = Recorder<String>()
        let queue = DispatchQueue(label: "limiter.completer")
        var last = Future<Int>(value: 0)
        for index in 0..<stressIterations(1_000, atLeast: 100) {
            let unit = Promise<Int>()
            last = fifo.add {
                log.append("\(index) started")
                queue.async { unit.succeed(index) }
                return unit.future
            }.onSuccess { _ in log.append("\(index) handled") }
        }
        _ = try last.wait(timeout: .seconds(60))
        let order = log.all
        for (position, entry) in order.enumerated() where entry.hasSuffix("started") && position > 0 {
            let around = order[max(0, position - 4)..<min(order.count, position + 4)]
            #expect(order[position - 1].hasSuffix("handled"), "\(around)")
        }
    }

    /// A documented precondition (a programmer error in an argument), not a report.
    @Test func limitBelowOneTraps() async {
        await #expect(processExitsWith: .failure) { _ = FutureLimiter(maxConcurrent: 0) }
    }

    @Test func neverRunsMoreThanTheLimitAndStartsInSubmissionOrder() {
        let limiter = FutureLimiter(maxConcurrent: 3)
        let workload = Workload(count: 10)
        let futures = (0..<10).map { limiter.add(workload.work($0)) }
        #expect(workload.started.all == [0, 1, 2])
        #expect(limiter.queuedCount == 7)
        for index in [1, 0, 2, 4, 3, 5, 6, 7, 8, 9] { workload.promises[index].succeed(index) }
        #expect(workload.started.all == Array(0..<10))
        #expect(workload.mostAtOnce == 3)
        #expect(futures.map { $0.peek()?.value } == Array(0..<10))
    }

    /// Four threads submit, and units complete on Dispatch's threads, so slots free on
    /// two threads at once: the later unit's `work` used to be called first in some
    /// rounds, though the queue had handed out the units in order. The rounds run on a
    /// thread of their own, which waits for each round's units: waiting on a thread of
    /// the cooperative pool would starve the tests that run beside this one.
    @Test func workIsCalledInSubmissionOrderWhateverThreadsSubmitAndComplete() async {
        let submitters = 4
        let perSubmitter = 16
        let rounds = stressIterations(5_000, atLeast: 500)
        let outOfOrder = Counter()
        await onAnotherThread {
            for _ in 0..<rounds {
                let limiter = FutureLimiter(maxConcurrent: 3)
                let started = Recorder<(submitter: Int, index: Int)>()
                let done = DispatchGroup()
                DispatchQueue.concurrentPerform(iterations: submitters) { submitter in
                    for index in 0..<perSubmitter {
                        done.enter()
                        limiter.add { () -> Future<Void> in
                            started.append((submitter, index))
                            return Future(on: .global()) {}
                        }.always { done.leave() }
                    }
                }
                done.wait()
                let order = started.all
                for submitter in 0..<submitters
                where order.filter({ $0.submitter == submitter }).map(\.index) != Array(0..<perSubmitter) {
                    outOfOrder.increment()
                }
            }
        }
        #expect(outOfOrder.count == 0)
    }

    /// The thread that calls an inline `work` is starting units for the limiter; a unit
    /// submitted from inside that `work` starts once it has returned, on that thread.
    @Test func unitSubmittedFromInsideWorkStartsAfterThatWorkReturns() {
        let limiter = FutureLimiter(maxConcurrent: 2)
        let log = Recorder<String>()
        limiter.add { () -> Future<Int> in
            log.append("outer starts")
            limiter.add { () -> Future<Int> in
                log.append("inner starts")
                return Future(value: 2)
            }
            log.append("outer returns")
            return Future(value: 1)
        }
        #expect(log.all == ["outer starts", "outer returns", "inner starts"])
    }

    @Test func cancelRequestOnQueuedWorkRemovesItWithoutRunningIt() {
        let limiter = FutureLimiter(maxConcurrent: 1)
        let workload = Workload(count: 3)
        let futures = (0..<3).map { limiter.add(workload.work($0)) }
        futures[1].requestCancellation()
        #expect(futures[1].peek()?.isCancelled == true)
        workload.promises[0].succeed(0)
        #expect(workload.started.all == [0, 2])
    }

    @Test func cancelRequestOnQueuedWorkLetsGoOfItAtOnce() {
        final class Captured: Sendable {}
        let limiter = FutureLimiter(maxConcurrent: 1)
        let running = Promise<Int>()
        limiter.add { running.future }
        weak var weakCaptured: Captured?
        let queued: Future<Int>
        do {
            let captured = Captured()
            weakCaptured = captured
            queued = limiter.add {
                _ = captured
                return Future(value: 1)
            }
        }
        #expect(weakCaptured != nil)
        queued.requestCancellation()
        #expect(weakCaptured == nil)  // while the unit before it still runs
        #expect(limiter.queuedCount == 1)  // skipped when its turn comes
        running.succeed(0)
        #expect(limiter.queuedCount == 0)
    }

    @Test func cancelRequestOnRunningWorkReachesItsFuture() {
        let limiter = FutureLimiter(maxConcurrent: 1)
        let running = CancellablePromise<Int>()
        let future = limiter.add { running.future }
        future.requestCancellation()
        #expect(running.requests.count == 1)
        #expect(future.peek()?.isCancelled == true)
        #expect(limiter.add { Future(value: 1) }.peek()?.value == 1)  // the slot is free again
    }

    @Test func throwingWorkFailsItsFutureAndFreesTheSlot() {
        let limiter = FutureLimiter(maxConcurrent: 1)
        #expect(limiter.add { () throws -> Future<Int> in throw TestError() }.peek()?.error is TestError)
        #expect(limiter.add { Future(value: 2) }.peek()?.value == 2)
    }

    @Test func workRunsOnItsExecutor() {
        let executor = ManualExecutor()
        let limiter = FutureLimiter(maxConcurrent: 1)
        let ran = Counter()
        let future = limiter.add(on: executor.context) { () -> Future<Int> in
            ran.increment()
            return Future(value: 1)
        }
        #expect(ran.count == 0)
        executor.runAll()
        #expect(ran.count == 1 && future.peek()?.value == 1)
    }

    @Test func manyCancelledQueuedUnitsAreSkippedWithoutRecursion() {
        let limiter = FutureLimiter(maxConcurrent: 1)
        let first = Promise<Int>()
        _ = limiter.add { first.future }
        let queued = (0..<100_000).map { _ in limiter.add { Future(value: 0) } }
        for future in queued.dropLast() { future.requestCancellation() }
        first.succeed(0)
        #expect(queued.last?.peek()?.value == 0)
        #expect(limiter.queuedCount == 0)
    }
}

@Suite struct FutureFIFOTests {
    @Test func runsOneAtATimeInOrderUnderEightConcurrentSubmitters() {
        let submitters = 8
        let perSubmitter = stressIterations(2_000, atLeast: 500)
        let fifo = FutureFIFO()
        let active = Locked(0)
        let overlaps = Counter()
        let order = Recorder<(submitter: Int, index: Int)>()
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: submitters) { submitter in
            for index in 0..<perSubmitter {
                done.enter()
                fifo.add { () -> Future<Void> in
                    if active.withLock({
                        $0 += 1
                        return $0
                    }) > 1 {
                        overlaps.increment()
                    }
                    order.append((submitter, index))
                    return Future(on: .global()) { active.withLock { $0 -= 1 } }
                }.always { done.leave() }
            }
        }
        done.wait()
        #expect(overlaps.count == 0)
        let started = order.all
        #expect(started.count == submitters * perSubmitter)
        for submitter in 0..<submitters {
            let indices = started.filter { $0.submitter == submitter }.map(\.index)
            #expect(indices == Array(0..<perSubmitter))  // each submitter's units in its order
        }
    }

    @Test func nextUnitStartsWhateverTheOutcomeOfThePreviousOne() {
        let fifo = FutureFIFO()
        let failing = Promise<Int>()
        let first = fifo.add { failing.future }
        let second = fifo.add { Future(value: 2) }
        #expect(fifo.queuedCount == 1)
        failing.fail(TestError())
        #expect(first.peek()?.error is TestError)
        #expect(second.peek()?.value == 2)
    }
}
