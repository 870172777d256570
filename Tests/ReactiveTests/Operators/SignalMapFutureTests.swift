import Dispatch
import FutureBridge
import FutureBridgeTesting
import TestSupport
import Testing

@testable import Reactive

/// mapFuture with inner futures completed by hand.
@Suite struct SignalMapFutureTests {
    /// Promises made by a transform, in the order it made them, with the cancel requests
    /// they received.
    final class Inner: Sendable {
        let made = Recorder<(value: Int, promise: Promise<String>)>()
        let cancelled = Recorder<Int>()

        func transform(_ value: Int) -> Future<String> {
            let promise = Promise<String>()
            promise.onCancellationRequest { [cancelled] promise in
                cancelled.append(value)
                promise.cancel()
            }
            made.append((value, promise))
            return promise.future
        }

        func promise(for value: Int) -> Promise<String> {
            made.all.first { $0.value == value }!.promise
        }
    }

    /// A pipe mapped with `strategy`: the transform's promises, the pipe's input, and
    /// what the mapped signal delivers.
    static func mapped(
        _ strategy: MapFutureStrategy, onFailure: InnerFailurePolicy = .failSignal
    ) -> (inner: Inner, input: SignalInput<Int>, events: Recorder<String>) {
        let inner = Inner()
        let (signal, input) = Signal<Int>.pipe()
        return (inner, input, record(signal.mapFuture(strategy, onFailure: onFailure, inner.transform)))
    }

    @Test func concatRunsOneAtATimeInOrder() {
        let (inner, input, events) = Self.mapped(.concat)
        input.send(1)
        input.send(2)
        input.send(3)
        input.sendCompleted()
        #expect(inner.made.all.map(\.value) == [1])
        inner.promise(for: 1).succeed("one")
        #expect(inner.made.all.map(\.value) == [1, 2])
        inner.promise(for: 2).succeed("two")
        inner.promise(for: 3).succeed("three")
        #expect(events.all == ["one", "two", "three", "completed"])
    }

    @Test func mergeRunsAtOnceWithinItsLimitAndSendsResultsAsTheyCome() {
        let (inner, input, events) = Self.mapped(.merge(maxConcurrent: 2))
        for value in 1...4 { input.send(value) }
        #expect(inner.made.all.map(\.value) == [1, 2])  // the limit is never exceeded
        inner.promise(for: 2).succeed("two")
        #expect(inner.made.all.map(\.value) == [1, 2, 3])
        inner.promise(for: 3).succeed("three")
        inner.promise(for: 1).succeed("one")
        input.sendCompleted()
        #expect(events.all == ["two", "three", "one"])
        inner.promise(for: 4).succeed("four")
        #expect(events.all == ["two", "three", "one", "four", "completed"])
    }

    @Test func latestCancelsTheSupersededFutureAndDropsItsResult() {
        let (inner, input, events) = Self.mapped(.latest)
        input.send(1)
        input.send(2)
        #expect(inner.cancelled.all == [1])
        inner.promise(for: 1).succeed("stale")  // already cancelled: ignored anyway
        inner.promise(for: 2).succeed("two")
        input.sendCompleted()
        #expect(events.all == ["two", "completed"])
    }

    /// A memoized search: a new value whose transform returns the future in flight keeps
    /// it (the latest value still wants it); a value with another future supersedes it.
    @Test func latestKeepsTheFutureInFlightWhenTheNewValueMapsToItToo() {
        let requests = Recorder<String>()
        let promises = ["a": Promise<String>(), "b": Promise<String>()]
        for (key, promise) in promises {
            promise.onCancellationRequest { promise in
                requests.append(key)
                promise.cancel()
            }
        }
        let (signal, input) = Signal<String>.pipe()
        let events = record(signal.mapFuture(.latest) { promises[$0]!.future })
        input.send("a")
        input.send("a")
        #expect(requests.all.isEmpty)
        promises["a"]!.succeed("found a")
        input.send("a")  // completed: tracked again, sent again
        input.send("b")
        input.send("b")
        input.send("a")  // a completed future: nothing to cancel; b is superseded
        #expect(requests.all == ["b"])
        input.sendCompleted()
        #expect(events.all == ["found a", "found a", "found a", "completed"])
    }

    /// Four threads send values that all map to one memoized future: whatever the order,
    /// the latest value wants it, so it never gets a cancel request.
    @Test func latestFromFourThreadsNeverCancelsTheFutureEveryValueMapsTo() {
        let perThread = stressIterations(25_000, atLeast: 2_500)
        let requests = Counter()
        let memoized = Promise<String>()
        memoized.onCancellationRequest { _ in requests.increment() }
        let (signal, input) = Signal<Int>.pipe()
        let events = record(signal.mapFuture(.latest) { _ in memoized.future })
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for value in 0..<perThread { input.send(value) }
        }
        #expect(requests.count == 0)
        memoized.succeed("found")
        input.sendCompleted()
        #expect(events.all == ["found", "completed"])
    }

    /// `FutureCache` hands each request a future of its own that shares the fetch: the
    /// superseded request's cancellation leaves the fetch to the latest one.
    @Test func latestOverAFutureCacheKeepsTheSharedFetch() {
        let cache = FutureCache<String, String>()
        let fetches = Recorder<Promise<String>>()
        let requests = Counter()
        let (signal, input) = Signal<String>.pipe()
        let events = record(
            signal.mapFuture(.latest) { query in
                cache.findOrFetch(query) { _ in
                    let promise = Promise<String>()
                    promise.onCancellationRequest { promise in
                        requests.increment()
                        promise.cancel()
                    }
                    fetches.append(promise)
                    return promise.future
                }
            })
        input.send("swift")
        input.send("swift")
        #expect(fetches.all.count == 1 && requests.count == 0)
        fetches.all[0].succeed("results")
        input.sendCompleted()
        #expect(events.all == ["results", "completed"])
    }

    @Test func failedInnerFutureFailsTheSignalAndCancelsTheOthers() {
        let (inner, input, events) = Self.mapped(.merge())
        input.send(1)
        input.send(2)
        inner.promise(for: 1).fail(TestError())
        #expect(events.all == ["failed(TestError(code: 1))"])
        #expect(inner.cancelled.all == [2])
    }

    @Test func failedInnerFutureCanBeSkipped() {
        let (inner, input, events) = Self.mapped(.concat, onFailure: .skip)
        input.send(1)
        input.send(2)
        input.sendCompleted()
        inner.promise(for: 1).fail(TestError())
        inner.promise(for: 2).succeed("two")
        #expect(events.all == ["two", "completed"])
    }

    @Test func detachingCancelsEveryFutureInFlightAndDropsQueuedValues() {
        let inner = Inner()
        let (signal, input) = Signal<Int>.pipe()
        let observation = signal.mapFuture(.merge(maxConcurrent: 2), inner.transform).observe { _ in }
        for value in 1...3 { input.send(value) }
        observation.detach()
        #expect(inner.cancelled.all.sorted() == [1, 2])
        #expect(inner.made.all.map(\.value) == [1, 2])  // 3 never started
    }

    /// The future in flight ignores its cancel request and stays pending: the values
    /// queued behind it are let go when the mapped signal ends all the same.
    @Test(arguments: [MapFutureStrategy.concat, .merge(maxConcurrent: 1)])
    func queuedValuesAreLetGoWhenTheMappedSignalEnds(strategy: MapFutureStrategy) {
        let live = Tracked.Live()
        let running = Promise<String>()  // no cancel handler: keeps going
        let (signal, input) = Signal<Tracked>.pipe()
        let observation = signal.mapFuture(strategy) { _ in running.future }.observe { _ in }
        for number in 1...3 { input.send(Tracked(number, live)) }
        #expect(live.now == 2)  // 2 and 3 wait for 1's future
        observation.detach()
        #expect(live.now == 0)
        #expect(!running.isCompleted)
        running.succeed("late")
    }

    @Test func sourceFailureEndsTheSignalAndCancelsTheFuturesInFlight() {
        let (inner, input, events) = Self.mapped(.concat)
        input.send(1)
        input.sendFailed(TestError(code: 9))
        #expect(events.all == ["failed(TestError(code: 9))"])
        #expect(inner.cancelled.all == [1])
    }

    /// `.concat` used to deliver results out of order in 2 to 94 of 200 such rounds:
    /// futures completed at once, on serial queues, on the global queue, on a manual
    /// executor, chosen by a seeded generator.
    @Test func concatKeepsTheOrderOfTheValuesWhateverCompletesTheFutures() throws {
        let queues = (0..<3).map { DispatchQueue(label: "concat.\($0)") }
        for round in 0..<stressIterations(1_000, atLeast: 200) {
            var generator = SeededGenerator(seed: UInt64(round))
            let plan = (0..<20).map { _ in
                (how: Int.random(in: 0..<5, using: &generator), queue: Int.random(in: 0..<3, using: &generator))
            }
            let executor = ManualExecutor()
            let (signal, input) = Signal<Int>.pipe()
            let results = signal.mapFuture(.concat) { value -> Future<Int> in
                let step = plan[value]
                switch step.how {
                case 0: return Future(value: value)
                case 1: return Future(on: .queue(queues[step.queue])) { value }
                case 2: return Future(on: .global()) { value }
                case 3: return Future(value: value).map(on: .queue(queues[step.queue])) { $0 }
                default:
                    let promise = Promise<Int>()
                    executor.context.execute { promise.succeed(value) }
                    queues[step.queue].async { executor.runAll() }
                    return promise.future
                }
            }.collect()
            for value in 0..<20 { input.send(value) }
            input.sendCompleted()
            #expect(try results.wait(timeout: .seconds(60)) == Array(0..<20))
        }
    }
}

/// A deterministic random number generator (SplitMix64), so that a randomized test runs
/// the same cases every time.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
