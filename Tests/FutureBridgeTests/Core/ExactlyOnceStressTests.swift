import Dispatch
import Foundation
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

/// Races and long chains: run under ThreadSanitizer by `.ci/run`.
@Suite struct ExactlyOnceStressTests {
    static let threads = 4

    @Test func racingCompletionsHaveExactlyOneWinner() {
        let total = stressIterations(1_000_000, atLeast: 100_000)
        let batch = 1_000
        var remaining = total
        while remaining > 0 {
            let size = min(batch, remaining)
            remaining -= size
            let promises = (0..<size).map { _ in Promise<Int>() }
            let handlerRuns = Locked([Int](repeating: 0, count: size))
            let delivered = Locked([Int](repeating: -1, count: size))
            for (index, promise) in promises.enumerated() {
                promise.future.onSuccess { value in
                    handlerRuns.withLock { $0[index] += 1 }
                    delivered.withLock { $0[index] = value }
                }
            }
            let winners = Locked([Int](repeating: -1, count: size))
            let wins = Locked(0)
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for (index, promise) in promises.enumerated() where promise.succeed(thread) {
                    winners.withLock { $0[index] = thread }
                    wins.withLock { $0 += 1 }
                }
            }
            #expect(wins.withLock { $0 } == size)
            #expect(handlerRuns.withLock { $0 }.allSatisfy { $0 == 1 })
            #expect(delivered.withLock { $0 } == winners.withLock { $0 })
        }
    }

    @Test func handlersAttachedBeforeDuringAndAfterCompletionRunOnceOnTheirExecutor() throws {
        let iterations = stressIterations(2_000)
        let queue = DispatchQueue(label: "stress.handlers")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let executor = ManualExecutor()
        for _ in 0..<iterations {
            let promise = Promise<Int>()
            let inlineRuns = Counter()
            let queueRuns = Counter()
            let wrongQueue = Counter()
            let manualRuns = Counter()
            let perThread = 20
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for step in 0..<perThread {
                    if thread == 0 && step == perThread / 2 { promise.succeed(1) }
                    promise.future.onSuccess { _ in inlineRuns.increment() }
                    promise.future.onSuccess(on: .queue(queue)) { _ in
                        if DispatchQueue.getSpecific(key: key) != true { wrongQueue.increment() }
                        queueRuns.increment()
                    }
                    promise.future.onSuccess(on: executor.context) { _ in manualRuns.increment() }
                }
            }
            queue.sync {}
            executor.runAll()
            let expected = Self.threads * perThread
            #expect(inlineRuns.count == expected)
            #expect(queueRuns.count == expected)
            #expect(manualRuns.count == expected)
            #expect(wrongQueue.count == 0)
        }
    }

    @Test func millionLongChainOfHandlersCompletingPromisesDoesNotOverflowTheStack() {
        let length = 1_000_000
        let promises = (0...length).map { _ in Promise<Int>() }
        for index in 0..<length {
            let next = promises[index + 1]
            promises[index].future.onSuccess { value in next.succeed(value + 1) }
        }
        promises[0].succeed(0)
        #expect(promises[length].future.peek()?.value == length)
    }

    @Test func millionLongMapChainDoesNotOverflowTheStack() {
        let length = 1_000_000
        let root = Promise<Int>()
        var future = root.future
        for _ in 0..<length { future = future.map { $0 + 1 } }
        root.succeed(0)
        #expect(future.peek()?.value == length)
    }

    @Test func recursiveRetryOnCompletedFuturesDoesNotOverflowTheStack() {
        let attempts = Counter()
        let done = Promise<Int>()
        @Sendable func attempt(_ n: Int) {
            attempts.increment()
            let result: Future<Int> = n < 1_000_000 ? Future(error: TestError()) : Future(value: n)
            result
                .onFailure { _ in attempt(n + 1) }
                .onSuccess { done.succeed($0) }
        }
        attempt(1)
        #expect(done.future.peek()?.value == 1_000_000)
        #expect(attempts.count == 1_000_000)
    }

    /// The trampoline used to keep every job it ran until the outermost drain ended (a
    /// million re-arming steps kept 138 MB). Each step here queues the next one; the
    /// queue must stay a few jobs long.
    @Test func millionSelfReArmingStepsKeepTheTrampolineQueueShort() {
        let steps = 1_000_000
        let longest = Locked((queued: 0, slots: 0))
        let done = Promise<Int>()
        @Sendable func step(_ number: Int) {
            let trampoline = Trampoline.current
            longest.withLock { $0 = (max($0.queued, trampoline.queuedCount), max($0.slots, trampoline.slotCount)) }
            if number == steps {
                done.succeed(number)
            } else {
                Future(value: number + 1).onSuccess { step($0) }
            }
        }
        step(0)
        #expect(done.future.peek()?.value == steps)
        #expect(longest.withLock { $0.queued } <= 2)
        #expect(longest.withLock { $0.slots } <= 2 * FIFOQueue<Int>.reclaimThreshold)
    }

    @Test func retryWithMillionAttemptsKeepsTheTrampolineQueueShort() {
        let attempts = 1_000_000
        let made = Counter()
        let longestSlots = Locked(0)
        let result = retry(attempts: attempts) { () -> Future<Int> in
            made.increment()
            let slots = Trampoline.current.slotCount
            longestSlots.withLock { $0 = max($0, slots) }
            return made.count < attempts ? Future(error: TestError()) : Future(value: made.count)
        }
        #expect(result.peek()?.value == attempts)
        #expect(longestSlots.withLock { $0 } <= 2 * FIFOQueue<Int>.reclaimThreshold)
    }
}
