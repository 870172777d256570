import Foundation
import FutureBridge

/// B7: many tasks awaiting one value, resumed together, for FutureBridge and for raw
/// continuations kept by hand, in the same conditions: `awaiters` child tasks of one task
/// group each announce themselves and await; once every child has announced itself the
/// value is produced (on the awaiting task's thread) and the group waits for them all.
enum AwaitCases {
    /// Children that have started (and are about to await, or awaiting).
    final class Arrivals: @unchecked Sendable {  // `count` only under `lock`
        private let lock = NSLock()
        private var count = 0

        func arrive() { lock.withLock { count += 1 } }
        var all: Int { lock.withLock { count } }

        /// Yields until `expected` children arrived.
        func wait(for expected: Int) async {
            while all < expected { await Task.yield() }
        }
    }

    static func b7FutureBridge(_ awaiters: Int) async {
        let promise = Promise<Int>()
        let future = promise.future
        let arrivals = Arrivals()
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<awaiters {
                group.addTask {
                    arrivals.arrive()
                    return (try? await future.value) ?? 0
                }
            }
            await arrivals.wait(for: awaiters)
            promise.succeed(1)
            var total = 0
            for await value in group { total &+= value }
            blackHole(total)
        }
    }

    /// The hand-made equivalent: a value and the continuations waiting for it, under a
    /// lock; producing it resumes every continuation registered so far, later arrivals
    /// take it at once.
    final class Gate: @unchecked Sendable {  // `value` and `waiting` only under `lock`
        private let lock = NSLock()
        private var value: Int?
        private var waiting: [UnsafeContinuation<Int, Never>] = []

        var next: Int {
            get async {
                await withUnsafeContinuation { continuation in
                    lock.lock()
                    if let value {
                        lock.unlock()
                        continuation.resume(returning: value)
                    } else {
                        waiting.append(continuation)
                        lock.unlock()
                    }
                }
            }
        }

        func open(with value: Int) {
            lock.lock()
            self.value = value
            let waiting = self.waiting
            self.waiting = []
            lock.unlock()
            for continuation in waiting { continuation.resume(returning: value) }
        }
    }

    static func b7Continuation(_ awaiters: Int) async {
        let gate = Gate()
        let arrivals = Arrivals()
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<awaiters {
                group.addTask {
                    arrivals.arrive()
                    return await gate.next
                }
            }
            await arrivals.wait(for: awaiters)
            gate.open(with: 1)
            var total = 0
            for await value in group { total &+= value }
            blackHole(total)
        }
    }
}
