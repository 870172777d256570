import Dispatch
import Foundation
import FutureBridge
import FutureBridgeInternals
import TestSupport
import Testing

@testable import Reactive

/// ``SignalValues``: what `for try await` over a signal does at its ends (completion,
/// failure, interruption, cancellation, release), on an actor, and with a million values.
/// The race tests are in `SignalValuesRaceTests`.
///
/// Three minutes: a million values in step take a turn of the cooperative pool each, and
/// under ThreadSanitizer the suite's other stress tests keep its threads busy for minutes.
@Suite(.timeLimit(.minutes(3)))
struct SignalValuesTests {
    /// Every value of `values` until the loop ends, and the error that ended it, if any.
    static func drain<Value>(_ values: SignalValues<Value>) async -> (values: [Value], error: (any Error)?) {
        var taken: [Value] = []
        do {
            for try await value in values { taken.append(value) }
        } catch {
            return (taken, error)
        }
        return (taken, nil)
    }

    // MARK: Lifetime

    @Test func aSequenceNeverIteratedDetachesWhenReleased() {
        let stops = Counter()
        let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
        do {
            let values = signal.values()
            #expect(!signal.isTerminated)
            withExtendedLifetime(values) {}
        }
        #expect(signal.isTerminated)  // its only observer left: the source was told
        #expect(stops.count == 1)
        withExtendedLifetime(input) {}
    }

    @Test func leavingALoopWithBreakDetaches() async throws {
        let stops = Counter()
        let signal = Signal<Int> { input in
            for value in 1...3 { input.send(value) }  // sent as the sequence attaches: kept
            return {
                stops.increment()
                withExtendedLifetime(input) {}  // the input lives until the stop: no interruption
            }
        }
        for try await value in signal.values() where value == 1 { break }
        #expect(stops.count == 1)
    }

    @Test func aSecondLoopOverOneSequenceGoesOnWhereTheFirstStopped() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let values = signal.values()
        for value in 1...4 { input.send(value) }
        input.sendCompleted()
        for try await value in values where value == 2 { break }
        #expect(await Self.drain(values).values == [3, 4])
    }

    /// Two iterators alive at once, used in turn (the documented behaviour): each value
    /// goes to exactly one of them; with the unbounded policy an iterator takes every
    /// value kept when its own run out, so the other one gets only what comes after (and,
    /// once the first is released, what it had left, in front).
    @Test func twoLiveIteratorsOfTheUnboundedPolicyEachKeepWhatTheyTook() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let values = signal.values()
        for value in 0..<3 { input.send(value) }
        var inner: SignalValues<Int>.Iterator
        do {
            var outer = values.makeAsyncIterator()
            #expect(try await outer.next() == 0)  // 1 and 2 are its own now
            inner = values.makeAsyncIterator()
            input.send(10)
            #expect(try await inner.next() == 10)
            #expect(try await outer.next() == 1)
            input.send(11)
            #expect(try await inner.next() == 11)
        }
        input.send(12)
        #expect(try await inner.next() == 2)  // the released outer iterator's, in front
        #expect(try await inner.next() == 12)
    }

    /// A bounded policy's iterators take one value at a time: used in turn, they get the
    /// values in the order they were sent.
    @Test(arguments: [SignalBufferingPolicy.oldest(8), .newest(8)])
    func twoLiveIteratorsOfABoundedPolicyTakeTheValuesInOrder(policy: SignalBufferingPolicy) async throws {
        let (signal, input) = Signal<Int>.pipe()
        let values = signal.values(buffering: policy)
        for value in 0..<4 { input.send(value) }
        var first = values.makeAsyncIterator()
        var second = values.makeAsyncIterator()
        #expect(try await first.next() == 0)
        #expect(try await second.next() == 1)
        #expect(try await first.next() == 2)
        #expect(try await second.next() == 3)
    }

    // MARK: Ends

    @Test func failureAndInterruptionComeAfterTheKeptValues() async {
        let (failing, failingInput) = Signal<Int>.pipe()
        let failingValues = failing.values()
        failingInput.send(1)
        failingInput.sendFailed(TestError())
        let failed = await Self.drain(failingValues)
        #expect(failed.values == [1] && failed.error is TestError)
        let (interrupted, interruptedInput) = Signal<Int>.pipe()
        let interruptedValues = interrupted.values()
        interruptedInput.send(1)
        interruptedInput.sendInterrupted()
        let cancelled = await Self.drain(interruptedValues)
        #expect(cancelled.values == [1] && cancelled.error is CancellationError)
        #expect(await Self.drain(interruptedValues).error == nil)  // thrown once, then the end
    }

    @Test func aSequenceMadeAfterTheEndEndsAtOnce() async {
        let (signal, input) = Signal<Int>.pipe()
        input.sendFailed(TestError())
        #expect(await Self.drain(signal.values()).error is TestError)
    }

    /// Whether the task is suspended when it is cancelled or not, the loop ends without an
    /// error, and the observer is detached before it ends.
    @Test func cancellingTheTaskEndsTheLoopWithoutAnErrorAndDetaches() async {
        let stops = Counter()
        let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
        let values = signal.values()
        let consumer = Task { await Self.drain(values) }
        consumer.cancel()
        let result = await consumer.value
        #expect(result.values.isEmpty && result.error == nil)
        #expect(stops.count == 1)
        withExtendedLifetime(input) {}
    }

    /// Cancelling a task suspended in `next()` resumes it at once, and the task itself
    /// detaches (which stops the source here): not the runtime's cancellation handler, on
    /// the thread that called `cancel()`.
    @Test func cancellingASuspendedTaskDetachesOnTheTaskNotInsideCancel() async throws {
        let stoppedOn = Promise<String?>()
        let (signal, input) = Signal<Int>.pipe(onStop: { stoppedOn.succeed(Thread.current.name) })
        let values = signal.values()
        let consumer = Task { await Self.drain(values) }
        while !values.reader.storage.state.withLock({ $0.isAwaiting }) { await Task.yield() }
        let cancelled = Promise<Void>()
        Thread.detachNewThread {
            Thread.current.name = "canceller"
            consumer.cancel()
            cancelled.succeed()
        }
        _ = await cancelled.future.outcome
        let result = await consumer.value
        #expect(result.values.isEmpty && result.error == nil)
        #expect(try await stoppedOn.future.value != "canceller")
        withExtendedLifetime(input) {}
    }

    /// The first value of `values`, through an iterator released on return.
    static func first<Value>(of values: SignalValues<Value>) async throws -> Value? {
        var iterator = values.makeAsyncIterator()
        return try await iterator.next()
    }

    /// As with `AsyncThrowingStream`: a cancelled task takes what was kept, then the loop
    /// ends; later values are not kept. The first iterator takes all four values at once
    /// (to hand them out without the lock) and, released, gives back the three it did not
    /// hand out: the next loop starts with them.
    @Test func aCancelledTaskTakesWhatWasKeptThenEnds() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let values = signal.values()
        for value in 1...4 { input.send(value) }
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let first = try await Self.first(of: values)
            input.send(5)  // detached: dropped
            return (first, await Self.drain(values))
        }
        let (first, rest) = try await consumer.value
        #expect(first == 1 && rest.values == [2, 3, 4] && rest.error == nil)
        #expect(signal.isTerminated)
    }

    // MARK: Actors

    /// On an actor, `for try await` takes kept values without leaving it: its executor runs
    /// no job during the loop (through `next()`, every value would cost a hop off the actor
    /// and a job to come back).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func aLoopOnAnActorTakesKeptValuesWithoutLeavingIt() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let values = signal.values()
        for value in 0..<1_000 { input.send(value) }
        input.sendCompleted()
        let consumer = CountingActor()
        let (taken, jobs) = try await consumer.takeAll(values)
        #expect(taken == Array(0..<1_000))
        #expect(jobs == 0)
    }

    // MARK: Misuse

    @Test func twoTasksAwaitingOneSequenceAtOnceStopTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let (signal, input) = Signal<Int>.pipe()
            let values = signal.values()
            let first = Task { await SignalValuesTests.drain(values) }
            let second = Task { await SignalValuesTests.drain(values) }
            _ = await (first.value, second.value)  // one of them stops the program
            withExtendedLifetime(input) {}
        }
    }

    // MARK: A million values

    /// A million values, each sent once the one before was taken: the ring that keeps them
    /// stays at its smallest size, and every value is released once taken.
    @Test func aMillionValuesInStepKeepTheRingAtItsSmallestSize() async throws {
        let count = stressIterations(1_000_000, atLeast: 100_000)
        let live = Tracked.Live()
        let (signal, input) = Signal<Tracked>.pipe()
        let values = signal.values()
        input.send(Tracked(0, live))
        var expected = 0
        var largestRing = 0
        for try await value in values {
            if value.number != expected { break }
            expected += 1
            largestRing = max(largestRing, values.reader.storage.bufferCapacity)
            if expected < count { input.send(Tracked(expected, live)) } else { input.sendCompleted() }
        }
        if stoppedByItsTimeLimit(after: "\(expected) of \(count) values") { return }
        #expect(expected == count)
        #expect(largestRing <= RingBuffer<Tracked>.retainedCapacity)
        #expect(live.now == 0)
    }

    /// A million values sent at once from another thread while the loop takes them: they
    /// arrive in order, a policy that keeps 64 never keeps more, and the unbounded ring
    /// that grew gives its slots back once drained.
    @Test(arguments: [SignalBufferingPolicy.unbounded, .newest(64), .oldest(64)])
    func aMillionValuesFromAnotherThreadArriveInOrder(policy: SignalBufferingPolicy) async throws {
        let count = stressIterations(1_000_000, atLeast: 100_000)
        let (signal, input) = Signal<Int>.pipe()
        let values = signal.values(buffering: policy)
        startOnAnotherThread {
            for value in 0..<count { input.send(value) }
            input.sendCompleted()
        }
        var previous = -1
        var taken = 0
        var inOrder = true
        var largestRing = 0
        for try await value in values {
            inOrder = inOrder && value > previous
            previous = value
            taken += 1
            if taken % 1_024 == 0 { largestRing = max(largestRing, values.reader.storage.bufferCapacity) }
        }
        if stoppedByItsTimeLimit(after: "\(taken) of \(count) values") { return }
        #expect(inOrder)
        if policy == .unbounded {
            #expect(taken == count)
        } else {
            #expect(largestRing <= 64)
        }
        #expect(values.reader.storage.bufferCapacity <= RingBuffer<Int>.retainedCapacity)
    }

    /// Values dropped by the policy, and values kept when the sequence is released, are
    /// released (after the lock, which the test cannot see, but released).
    @Test func droppedAndUntakenValuesAreReleased() {
        let live = Tracked.Live()
        let (signal, input) = Signal<Tracked>.pipe()
        do {
            let values = signal.values(buffering: .newest(2))
            for number in 0..<10 { input.send(Tracked(number, live)) }
            #expect(live.now == 2)
            withExtendedLifetime(values) {}
        }
        #expect(live.now == 0)
    }
}

/// An executor that counts the jobs it is given, and an actor that runs on it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class CountingExecutor: SerialExecutor {
    let queue = DispatchQueue(label: "futurebridge.tests.counting-executor")
    let jobs = Counter()

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.increment()
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
actor CountingActor {
    let executor = CountingExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Every value of `values`, and the jobs this actor's executor ran meanwhile.
    func takeAll(_ values: SignalValues<Int>) async throws -> (values: [Int], jobs: Int) {
        let before = executor.jobs.count
        var taken: [Int] = []
        for try await value in values { taken.append(value) }
        return (taken, executor.jobs.count - before)
    }
}
