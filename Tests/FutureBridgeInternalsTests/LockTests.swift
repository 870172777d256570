import Dispatch
import Foundation
import FutureBridgeAtomics
import TestSupport
import Testing

@testable import FutureBridgeInternals

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
        let overlaps = Locked(0)
        let perThread = stressIterations(200_000, atLeast: 20_000)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<perThread {
                lock.withLock { _ in
                    if shared.inside { overlaps.withLock { $0 += 1 } }
                    shared.inside = true
                    shared.count += 1
                    shared.inside = false
                }
            }
        }
        #expect(lock.withLock { _ in shared.count } == 4 * perThread)
        #expect(overlaps.withLock { $0 } == 0)
    }

    // The parking word exists on Linux only (Darwin uses os_unfair_lock).
    #if !canImport(Darwin)
        @Test func aThreadParkedOnAHeldLockIsWokenByTheUnlock() {
            let storage = Locked<Int>(0)
            let order = Locked<[String]>([])
            let finished = DispatchSemaphore(value: 0)
            storage.lock()
            // A thread of its own: this test spins until the waiter parks, and a global
            // queue thread may not come while other tests hold them all.
            startOnAnotherThread {
                storage.withLock { $0 += 1 }
                order.withLock { $0.append("waiter acquired") }
                finished.signal()
            }
            // The waiter spins, then marks the word 2 and parks: wait for that mark.
            while fb_u32_load_acquire(storage.lockWordAddress) != 2 {
                sched_yield()
            }
            order.withLock { $0.append("holder unlocking") }
            storage.unlock()
            finished.wait()
            #expect(order.withLock { $0 } == ["holder unlocking", "waiter acquired"])
            #expect(storage.withLock { $0 } == 1)
            #expect(fb_u32_load_acquire(storage.lockWordAddress) == 0)
        }
    #endif

    #if DEBUG
        @Test func takingALockTwiceOnOneThreadStopsWithAMessage() async {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let storage = Locked(0)
                storage.lock()
                storage.lock()
            }.map { result in
                #expect(
                    String(decoding: result.standardErrorContent, as: UTF8.self).contains("taken twice by one thread"))
            }
        }

        @Test func releasingALockFromAnotherThreadStopsWithAMessage() async {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let storage = Locked(0)
                storage.lock()
                let released = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    storage.unlock()
                    released.signal()
                }
                released.wait()
            }.map { result in
                #expect(
                    String(decoding: result.standardErrorContent, as: UTF8.self)
                        .contains("released by a thread that does not hold it"))
            }
        }
    #endif

    /// The words live at the start of their objects and are reached through that address
    /// only: what the atomics write is what the object's own property holds.
    @Test func atomicWordsAreTheObjectsFirstStoredProperties() {
        let flag = OnceFlag()
        #expect(flag.word == 0)
        #expect(flag.claim())
        #expect(flag.word == 1)
        #expect(!flag.claim())
        #expect(storedPropertyLabels(of: flag).first == "word")

        let storage = Locked(7)
        #expect(storedPropertyLabels(of: storage) == ["word", "state"])
        #expect(MemoryLayout<LockWord>.offset(of: \.platform) == 0)
        #expect(MemoryLayout<LockWord>.offset(of: \.holderBits) == MemoryLayout<PlatformLock.Word>.size)
        fb_u32_store_relaxed(storage.holderBitsAddress, 0xABCD)
        #expect(storage.word.holderBits == 0xABCD)
        #if !canImport(Darwin)  // an os_unfair_lock there, opaque
            storage.lock()
            #expect(storage.word.platform == 1)
            #expect(fb_u32_load_relaxed(storage.lockWordAddress) == 1)
            storage.unlock()
            #expect(storage.word.platform == 0)
        #endif
        #expect(storage.withLock { $0 } == 7)
    }
}
