import Foundation
import FutureBridge
import TestSupport
import Testing

@testable import Reactive

@Suite(.timeLimit(.minutes(1)))
struct SignalFutureBridgeTests {
    @Test func futureBecomesOneValueThenCompleted() {
        #expect(record(Signal(Future(value: 5))).all == ["5", "completed"])
        #expect(record(Signal(Future<Int>(error: TestError()))).all == ["failed(TestError(code: 1))"])
        #expect(record(Signal(Future<Int>.cancelled)).all == ["interrupted"])
    }

    @Test func signalEndingBeforeTheFutureSendsItACancelRequest() {
        let promise = Promise<Int>()
        let requests = Counter()
        promise.onCancellationRequest { _ in requests.increment() }
        let observation = Signal(promise.future).observe { _ in }
        observation.detach()
        #expect(requests.count == 1)
    }

    @Test func firstLastAndCollect() {
        let (signal, input) = Signal<Int>.pipe()
        let first = signal.first()
        let last = signal.last()
        let all = signal.collect()
        input.send(1)
        #expect(first.peek()?.value == 1)
        input.send(2)
        input.sendCompleted()
        #expect(last.peek()?.value == 2)
        #expect(all.peek()?.value == [1, 2])
    }

    @Test func endingsWithoutAValue() {
        let (empty, emptyInput) = Signal<Int>.pipe()
        let first = empty.first()
        let collected = empty.collect()
        emptyInput.sendCompleted()
        #expect(first.peek()?.error is EmptySignalError)
        #expect(collected.peek()?.value == [])
        let (failing, failingInput) = Signal<Int>.pipe()
        let last = failing.last()
        failingInput.sendFailed(TestError())
        #expect(last.peek()?.error is TestError)
        let (interrupted, interruptedInput) = Signal<Int>.pipe()
        let cancelled = interrupted.first()
        interruptedInput.sendInterrupted()
        #expect(cancelled.peek()?.isCancelled == true)
    }

    @Test func cancelRequestOnTheFutureDetachesFromTheSignal() {
        let stops = Counter()
        let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
        let first = signal.first()
        first.requestCancellation()
        #expect(first.peek()?.isCancelled == true)
        #expect(stops.count == 1)  // it was the only observer
        withExtendedLifetime(input) {}
    }
}
