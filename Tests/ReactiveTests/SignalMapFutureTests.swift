import FutureBridge
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
            promise.onCancelRequest { [cancelled] promise in
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

    @Test func sourceFailureEndsTheSignalAndCancelsTheFuturesInFlight() {
        let (inner, input, events) = Self.mapped(.concat)
        input.send(1)
        input.sendFailed(TestError(code: 9))
        #expect(events.all == ["failed(TestError(code: 9))"])
        #expect(inner.cancelled.all == [1])
    }
}
