import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import FutureBridge

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LockTests {
    /// A counter that is not atomic: only the lock keeps increments from being lost.
    final class Unprotected: @unchecked Sendable {
        // @unchecked Sendable: every access happens inside `Locked.withLock` in the test.
        var count = 0
        var inside = false
    }

    @Test func contendedIncrementsFromFourThreadsAreNeverLostOrOverlapping() {
        let lock = Locked<Int>(0)
        let shared = Unprotected()
        let overlaps = Atomic<Int>(0)
        let perThread = stressIterations(200_000, atLeast: 20_000)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<perThread {
                lock.withLock { _ in
                    if shared.inside { overlaps.add(1, ordering: .relaxed) }
                    shared.inside = true
                    shared.count += 1
                    shared.inside = false
                }
            }
        }
        #expect(lock.withLock { _ in shared.count } == 4 * perThread)
        #expect(overlaps.load(ordering: .relaxed) == 0)
    }

    @Test func aThreadParkedOnAHeldLockIsWokenByTheUnlock() {
        let storage = Locked<Int>(0)
        let order = Locked<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        storage.lock()
        DispatchQueue.global().async {
            storage.withLock { $0 += 1 }
            order.withLock { $0.append("waiter acquired") }
            finished.signal()
        }
        // The waiter spins, then marks the word 2 and parks: wait for that mark.
        while storage.word.load(ordering: .acquiring) != 2 {
            sched_yield()
        }
        order.withLock { $0.append("holder unlocking") }
        storage.unlock()
        finished.wait()
        #expect(order.withLock { $0 } == ["holder unlocking", "waiter acquired"])
        #expect(storage.withLock { $0 } == 1)
        #expect(storage.word.load(ordering: .acquiring) == 0)
    }
}
