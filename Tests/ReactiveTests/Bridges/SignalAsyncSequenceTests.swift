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

    @Test func iteratingTaskIsCancelledWhenTheLastObserverDetaches() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        // The stream's storage calls its termination handler before it marks itself
        // finished, so what the handler receives is the deterministic witness: `.cancelled`
        // when the iterating task was cancelled, `.finished` if the stream had ended.
        let ended = Promise<Bool>()
        continuation.onTermination = { termination in
            if case .cancelled = termination { ended.succeed(true) } else { ended.succeed(false) }
        }
        let observation = Signal(stream).observe { _ in }
        continuation.yield(1)
        observation.detach()
        #expect(try await ended.future.value)  // the iterating task was cancelled
    }

    /// An `AsyncSequence` that counts how many times it is iterated.
    struct CountedIterations<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable {
        let base: Base
        let iterations: Counter

        func makeAsyncIterator() -> Base.AsyncIterator {
            iterations.increment()
            return base.makeAsyncIterator()
        }
    }

    /// `Signal(sequence)` with one `values()` per consumer shares one iteration of the
    /// sequence: started by the first consumer, every value to each consumer attached,
    /// and cancelled when the last consumer leaves, not before.
    @Test func consumersOfOneSignalShareOneIterationOfTheSequence() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let iterationEnded = Promise<Void>()
        continuation.onTermination = { _ in iterationEnded.succeed() }
        let iterations = Counter()
        let shared = Signal(CountedIterations(base: stream, iterations: iterations))
        let first = shared.values()  // the first consumer starts the iteration
        let second = shared.values()
        let firstGotOne = Promise<Void>()
        let secondGotThree = Promise<Void>()
        let firstConsumer = Task {
            for try await _ in first { firstGotOne.succeed() }
        }
        let secondConsumer = Task {
            var taken: [Int] = []
            for try await value in second {
                taken.append(value)
                if value == 3 { secondGotThree.succeed() }
            }
            return taken
        }
        continuation.yield(1)
        _ = await firstGotOne.future.outcome
        firstConsumer.cancel()  // one consumer leaves: the iteration goes on for the other
        _ = try? await firstConsumer.value
        for value in 2...3 { continuation.yield(value) }
        _ = await secondGotThree.future.outcome
        #expect(!iterationEnded.future.isCompleted)
        secondConsumer.cancel()  // the last one leaves: the iterating task is cancelled
        _ = await iterationEnded.future.outcome
        #expect(try await secondConsumer.value == [1, 2, 3])
        #expect(iterations.count == 1)
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
