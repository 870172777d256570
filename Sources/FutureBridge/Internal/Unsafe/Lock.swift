import FutureBridgeAtomics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
    import os
#endif

/// The one lock of the library: a 4-byte word at the start of the object it guards.
///
/// - On Darwin it is an `os_unfair_lock`, which records its owner, so a main thread that
///   waits for a lock held by a background thread donates its priority to that thread
///   (no priority inversion).
/// - Elsewhere it is a word locked with one atomic instruction when uncontended; when
///   contended it spins briefly, then parks the thread. Not `pthread_mutex_t`: that is 40
///   bytes per future and needs an init and a destroy call, and a contended one sleeps
///   in the kernel at once although the library's critical sections last nanoseconds.
///   Not `Synchronization.Mutex` either: it needs macOS 15 / iOS 18, and on Linux its
///   futex is invisible to ThreadSanitizer, which then reports false races on everything
///   it guards (measured: a correct `Mutex<Int>` counter was reported in 5 runs of 5).
///   This lock is built only from C11 atomics with acquire/release orderings and pthread
///   condition variables, both of which ThreadSanitizer models.
///
/// The word is the first stored property, so its address is the start of the object's
/// stored properties: stable for the object's lifetime, and never reached through a
/// Swift property access (which could go through a temporary). Subclasses add the state
/// the lock guards as stored properties, in the same allocation, and reach them only
/// between ``lock()`` and ``unlock()``. No method may take the same lock twice on one
/// thread: debug builds stop with a message when a lock is taken twice by one thread or
/// released by a thread that does not hold it.
@usableFromInline
package class LockedObject {
    /// Only ever reached through ``wordAddress`` (and, in debug builds,
    /// ``ownerAddress``); see the class comment.
    @usableFromInline
    final var word = LockWord()

    @inlinable
    init() {}

    @inlinable @inline(__always)
    final var wordAddress: UnsafeMutablePointer<PlatformLock.Word> {
        firstStoredProperty(of: self)
    }

    @inlinable @inline(__always)
    package final func lock() {
        #if DEBUG
            LockOwnership.willLock(self)
        #endif
        PlatformLock.lock(wordAddress, of: self)
        #if DEBUG
            LockOwnership.didLock(self)
        #endif
    }

    @inlinable @inline(__always)
    package final func unlock() {
        #if DEBUG
            LockOwnership.willUnlock(self)
        #endif
        PlatformLock.unlock(wordAddress, of: self)
    }
}

/// The lock's word, the word of the promise that completes a future (in what would
/// otherwise be padding), and in debug builds the thread that holds the lock.
@usableFromInline
struct LockWord {
    /// Only ever reached through its address, as the platform's lock.
    @usableFromInline var platform = PlatformLock.initialWord
    /// For a future's storage: its promise's two flags and origin (`Promise.promiseWord`).
    /// Reached only atomically, through its address.
    @usableFromInline var promise: UInt32 = 0
    #if DEBUG
        /// The holding thread (``fb_current_thread()``), 0 when free; reached only
        /// atomically, through its address.
        @usableFromInline var owner = 0
    #endif

    @inlinable
    init() {}
}

#if canImport(Darwin)
    /// `os_unfair_lock` (macOS 10.12, iOS 10): it records its owner, so waiting donates
    /// priority.
    @usableFromInline
    enum PlatformLock {
        @usableFromInline typealias Word = os_unfair_lock
        @inlinable static var initialWord: Word { os_unfair_lock() }

        @inlinable @inline(__always)
        static func lock(_ word: UnsafeMutablePointer<Word>, of object: LockedObject) {
            os_unfair_lock_lock(word)
        }

        @inlinable @inline(__always)
        static func unlock(_ word: UnsafeMutablePointer<Word>, of object: LockedObject) {
            os_unfair_lock_unlock(word)
        }
    }
#else
    /// The word is 0 (unlocked), 1 (locked) or 2 (locked, and a thread may be parked).
    @usableFromInline
    enum PlatformLock {
        @usableFromInline typealias Word = UInt32
        @inlinable static var initialWord: Word { 0 }

        @inlinable @inline(__always)
        static func lock(_ word: UnsafeMutablePointer<Word>, of object: LockedObject) {
            if !fb_u32_compare_exchange_acquire(word, 0, 1) {
                lockContended(word, of: object)
            }
        }

        @inlinable @inline(__always)
        static func unlock(_ word: UnsafeMutablePointer<Word>, of object: LockedObject) {
            if fb_u32_exchange_release(word, 0) == 2 {
                ParkingLot.wakeAll(parkedOn: object)
            }
        }

        /// Spins while the holder is likely to be about to release, then parks: marks the
        /// word 2 so that the unlocking thread wakes the parked ones, and sleeps until it
        /// does.
        @usableFromInline @inline(never)
        static func lockContended(_ word: UnsafeMutablePointer<Word>, of object: LockedObject) {
            for _ in 0..<1_000 {
                if fb_u32_load_relaxed(word) == 0, fb_u32_compare_exchange_acquire(word, 0, 1) {
                    return
                }
            }
            // Taking the lock as 2 may be conservative (one wake-up too many), never wrong.
            while fb_u32_exchange_acquire(word, 2) != 0 {
                ParkingLot.park(on: object, whileWordIs: 2)
            }
        }
    }
#endif

#if !canImport(Darwin)
    /// Where threads sleep while a ``LockedObject`` is contended: a fixed table of
    /// pthread mutex and condition pairs, chosen by the word's address (WebKit's parking lot
    /// idea, reduced to the one operation a lock needs). A bucket is shared by the words that
    /// hash to it, so waking wakes every thread parked in the bucket, and each re-checks its
    /// own word.
    @usableFromInline
    enum ParkingLot {
        static let bucketCount = 64

        /// The buckets' mutexes and condition variables, at stable addresses. Never freed: the
        /// table lives as long as the process.
        nonisolated(unsafe) static let mutexes = table(of: pthread_mutex_t()) { pthread_mutex_init($0, nil) }
        nonisolated(unsafe) static let conditions = table(of: pthread_cond_t()) { pthread_cond_init($0, nil) }

        /// `bucketCount` copies of `zero`, each then set up by `initialize` (a pthread init
        /// function, which returns 0 on success).
        static func table<Entry>(
            of zero: Entry, _ initialize: (UnsafeMutablePointer<Entry>) -> Int32
        ) -> UnsafeMutablePointer<Entry> {
            let entries = UnsafeMutablePointer<Entry>.allocate(capacity: bucketCount)
            for index in 0..<bucketCount {
                (entries + index).initialize(to: zero)
                let error = initialize(entries + index)
                precondition(error == 0, "initializing the parking lot failed: \(error)")
            }
            return entries
        }

        static func bucket(for object: LockedObject) -> Int {
            let address = UInt(bitPattern: ObjectIdentifier(object))
            return Int((address >> 4 ^ address >> 12) % UInt(bucketCount))
        }

        /// Sleeps until woken, unless `object`'s word no longer holds `value`. The check and
        /// the sleep happen under the bucket's mutex, which the waking thread takes too: no
        /// wake-up is lost. May return spuriously; callers loop.
        static func park(on object: LockedObject, whileWordIs value: UInt32) {
            let bucket = bucket(for: object)
            pthread_mutex_lock(mutexes + bucket)
            if fb_u32_load_relaxed(object.wordAddress) == value {
                pthread_cond_wait(conditions + bucket, mutexes + bucket)
            }
            pthread_mutex_unlock(mutexes + bucket)
        }

        /// Wakes every thread parked in `object`'s bucket.
        @usableFromInline @inline(never)
        static func wakeAll(parkedOn object: LockedObject) {
            let bucket = bucket(for: object)
            pthread_mutex_lock(mutexes + bucket)
            pthread_cond_broadcast(conditions + bucket)
            pthread_mutex_unlock(mutexes + bucket)
        }
    }
#endif

/// A small lock-protected box for state that is not a future's (the diagnostics
/// handler, test helpers, per-call bookkeeping, and the Reactive module, which shares
/// this one lock through `package` access).
// @unchecked Sendable: `state` is only reached through `withLock`, which holds the
// lock for the whole access; `State: Sendable` keeps values moved in and out safe.
@usableFromInline
package final class Locked<State: Sendable>: LockedObject, @unchecked Sendable {
    // Reached only under the lock, so dynamic exclusivity checks would buy nothing.
    @usableFromInline @exclusivity(unchecked)
    var state: State

    @inlinable
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state. `body` must not call out to code
    /// that could take this lock again.
    @inlinable @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body(&state)
    }
}
