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
        promise.onCancelRequest { _ in requests.increment() }
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
        first.cancel()
        #expect(first.peek()?.isCancelled == true)
        #expect(stops.count == 1)  // it was the only observer
        withExtendedLifetime(input) {}
    }
}

@Suite(.timeLimit(.minutes(1)))
struct SignalAsyncSequenceTests {
    @Test func valuesCanBeAwaitedInALoop() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let values = signal.values()
        for value in 1...3 { input.send(value) }
        input.sendCompleted()
        var received: [Int] = []
        for try await value in values { received.append(value) }
        #expect(received == [1, 2, 3])
    }

    @Test func failureThrowsAndInterruptionThrowsCancellationError() async {
        let (failing, failingInput) = Signal<Int>.pipe()
        let failingValues = failing.values()
        failingInput.sendFailed(TestError())
        await #expect(throws: TestError.self) { for try await _ in failingValues {} }
        let (interrupted, interruptedInput) = Signal<Int>.pipe()
        let interruptedValues = interrupted.values()
        interruptedInput.sendInterrupted()
        await #expect(throws: CancellationError.self) { for try await _ in interruptedValues {} }
    }

    @Test(arguments: [
        (SignalBufferingPolicy.unbounded, [1, 2, 3, 4, 5]), (.newest(2), [4, 5]), (.oldest(2), [1, 2]),
    ])
    func bufferingPolicyDecidesWhatASlowConsumerGets(policy: SignalBufferingPolicy, expected: [Int]) async throws {
        let (signal, input) = Signal<Int>.pipe()
        let values = signal.values(buffering: policy)
        for value in 1...5 { input.send(value) }  // before the consumer reads anything
        input.sendCompleted()
        var received: [Int] = []
        for try await value in values { received.append(value) }
        #expect(received == expected)
    }

    @Test func cancellingTheConsumingTaskDetaches() async {
        let stopped = Promise<Void>()
        let (signal, input) = Signal<Int>.pipe(onStop: { stopped.succeed() })
        let iterating = Promise<Void>()
        let values = signal.values()  // attached now, so the value below is not missed
        let consumer = Task {
            for try await _ in values { iterating.succeed() }
        }
        input.send(1)
        _ = await iterating.future.outcome
        consumer.cancel()
        _ = await stopped.future.outcome  // the last observer detached: the source was told
        #expect(signal.isTerminated)
        _ = await consumer.result
    }

    @Test func asyncSequenceBecomesASignal() async throws {
        let numbers = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        #expect(try await Signal(numbers).collect().value == [1, 2, 3])
    }

    @Test func iteratingTaskIsCancelledWhenTheLastObserverDetaches() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let ended = Promise<Void>()
        continuation.onTermination = { _ in ended.succeed() }  // the iterating task was cancelled
        let observation = Signal(stream).observe { _ in }
        continuation.yield(1)
        observation.detach()
        _ = await ended.future.outcome
        var isTerminated = false
        if case .terminated = continuation.yield(2) { isTerminated = true }
        #expect(isTerminated)  // nothing iterates the stream any more
    }

    @Test func multiShotCallbackAPIBecomesASignalInOneLine() async throws {
        let center = NotificationCenter()
        let name = Notification.Name("futurebridge.test")
        let notes = Signal<Int> { input in
            // `removeObserver` may be called from any thread; the token type only lacks the mark.
            nonisolated(unsafe) let token = center.addObserver(forName: name, object: nil, queue: nil) {
                input.send($0.userInfo?["n"] as? Int ?? -1)
            }
            return { center.removeObserver(token) }
        }
        let firstTwo = notes.take(first: 2).collect()
        for n in 1...3 { center.post(name: name, object: nil, userInfo: ["n": n]) }
        #expect(try await firstTwo.value == [1, 2])
    }
}
