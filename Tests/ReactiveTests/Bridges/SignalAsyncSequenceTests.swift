import Foundation
import FutureBridge
import TestSupport
import Testing

@testable import Reactive

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
