import AsyncAlgorithms
import Foundation
import Reactive

/// B8 and B9: a signal consumed with `for await`, and an `AsyncSequence` made a signal,
/// next to the streams and the direct iteration that do the same.
enum AsyncSequenceCases {
    // MARK: B8

    /// The sending side of a stream, as its producer task uses it (a protocol rather than
    /// closures, so that each library's `send` is specialized and inlined into the
    /// producer's loop, as a user's code would have it).
    protocol Sending: Sendable {
        func send(_ value: Int)
        func finish()
    }

    struct SignalSending: Sending {
        let input: SignalInput<Int>
        func send(_ value: Int) { input.send(value) }
        func finish() { input.sendCompleted() }
    }

    struct StreamSending: Sending {
        let continuation: AsyncStream<Int>.Continuation
        func send(_ value: Int) { continuation.yield(value) }
        func finish() { continuation.finish() }
    }

    struct ThrowingStreamSending: Sending {
        let continuation: AsyncThrowingStream<Int, any Error>.Continuation
        func send(_ value: Int) { continuation.yield(value) }
        func finish() { continuation.finish() }
    }

    /// `n` Ints sent into a signal by a producer task, taken with `for try await` by
    /// this task through ``Signal/values(buffering:)``.
    static func b8Signal(_ n: Int, inStep: Bool) async {
        let (signal, input) = Signal<Int>.pipe()
        await consume(signal.values(), sentBy: n, through: SignalSending(input: input), inStep: inStep)
    }

    static func b8AsyncStream(_ n: Int, inStep: Bool) async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        await consume(stream, sentBy: n, through: StreamSending(continuation: continuation), inStep: inStep)
    }

    static func b8AsyncThrowingStream(_ n: Int, inStep: Bool) async {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Int.self, throwing: (any Error).self, bufferingPolicy: .unbounded)
        await consume(stream, sentBy: n, through: ThrowingStreamSending(continuation: continuation), inStep: inStep)
    }

    /// `AsyncChannel` has no buffer: its producer never runs ahead (`send` returns once
    /// the value is taken), so this is its row for both cases.
    static func b8AsyncChannel(_ n: Int) async {
        let channel = AsyncChannel<Int>()
        let producer = Task {
            for value in 0..<n { await channel.send(value) }
            channel.finish()
        }
        var sum = 0
        for await value in channel { sum &+= value }
        await producer.value
        blackHole(sum)
    }

    /// Takes every value of `values` with `for try await` in this task, while a producer
    /// task sends `0..<n` through `sending`, then finishes: as fast as it can, or, in
    /// step, each value once this task has taken the one before.
    static func consume<Values: AsyncSequence, Producer: Sending>(
        _ values: Values, sentBy n: Int, through sending: Producer, inStep: Bool
    ) async where Values.Element == Int {
        let baton = inStep ? Baton() : nil
        let producer = Task {
            for value in 0..<n {
                if value > 0, let baton { await baton.wait() }
                sending.send(value)
            }
            sending.finish()
        }
        var sum = 0
        do {
            for try await value in values {
                sum &+= value
                baton?.pass()
            }
        } catch {}
        await producer.value
        blackHole(sum)
    }

    /// The turn of a producer that sends a value only once the consumer has taken the one
    /// before: the consumer passes it after each value, the producer waits for it.
    final class Baton: @unchecked Sendable {  // `passes` and `waiting` only under `lock`
        private let lock = NSLock()
        private var passes = 0
        private var waiting: UnsafeContinuation<Void, Never>?

        func pass() {
            let producer = lock.withLock { () -> UnsafeContinuation<Void, Never>? in
                guard let producer = waiting else {
                    passes += 1
                    return nil
                }
                waiting = nil
                return producer
            }
            producer?.resume()
        }

        func wait() async {
            await withUnsafeContinuation { continuation in
                let passed = lock.withLock { () -> Bool in
                    guard passes == 0 else {
                        passes -= 1
                        return true
                    }
                    waiting = continuation
                    return false
                }
                if passed { continuation.resume() }
            }
        }
    }

    // MARK: B9

    /// The sum of the values a handler saw; only the signal's serialized delivery touches
    /// it, and the completion is read after it.
    final class Sum: @unchecked Sendable {
        var value = 0
    }

    /// The elements of `sequence` through `Signal(sequence)` to one observer.
    static func b9Signal<Elements: AsyncSequence & Sendable>(_ sequence: Elements) async where Elements.Element == Int {
        let sum = Sum()
        let signal = Signal(sequence)
        await withUnsafeContinuation { (done: UnsafeContinuation<Void, Never>) in
            signal.observe { event in
                switch event {
                case .value(let value): sum.value &+= value
                default: done.resume()
                }
            }
        }
        blackHole(sum.value)
    }

    /// The same sequence iterated directly, in a task of its own as the signal's is.
    static func b9Direct<Elements: AsyncSequence & Sendable>(_ sequence: Elements) async where Elements.Element == Int {
        let iteration = Task {
            var sum = 0
            do {
                for try await value in sequence { sum &+= value }
            } catch {}
            return sum
        }
        blackHole(await iteration.value)
    }

    /// An `AsyncStream` of `0..<n` that a producer task fills as fast as it can.
    static func fedStream(_ n: Int) -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        Task {
            for value in 0..<n { continuation.yield(value) }
            continuation.finish()
        }
        return stream
    }
}
