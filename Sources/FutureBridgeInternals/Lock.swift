// Invariants (what every use of this file relies on):
// - A lock holder's first stored property, in its root class, is a `LockWord`
//   (`LockHolder`'s requirement; `LockTests` checks it for every holder). The word is
//   reached only through that address (`firstStoredProperty`), never as a Swift property,
//   so no access goes through a temporary copy, and the address is stable for the
//   object's lifetime.
// - `LockWord.platform` is touched only by `PlatformLock`; `LockWord.holderBits` only
//   atomically, by the holder's own code; `LockWord.owner` (debug builds) only by
//   `LockOwnership`.
// - A thread never takes a lock it holds, and releases only a lock it holds (debug builds
//   stop with a message otherwise).
// - Between `lock()` and `unlock()` runs only the holder's own bookkeeping: no user code,
//   no other lock taken in the opposite order (Internals.md, "Lock rules").

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
/// A class that holds a lock declares `LockWord` as its first stored property (in its
/// root class) and conforms to this protocol, which gives it ``lock()`` and ``unlock()``.
/// Not a base class: a class of another module could not inherit from a `package` one,
/// and a future's storage (in FutureBridge) and ``Locked`` (here) both hold the lock. The
/// state the lock guards lives in the holder's other stored properties, in the same
/// allocation, reached only between ``lock()`` and ``unlock()``.
@usableFromInline
package protocol LockHolder: AnyObject {}

extension LockHolder {
    /// The lock word's address: the start of the object's stored properties.
    @inlinable @inline(__always)
    package var lockWordAddress: UnsafeMutablePointer<PlatformLock.Word> {
        firstStoredProperty(of: self)
    }

    /// The holder's own 4 bytes next to the lock word (``LockWord/holderBits``), for
    /// flags it reaches only atomically without taking the lock.
    @inlinable @inline(__always)
    package var holderBitsAddress: UnsafeMutablePointer<UInt32> {
        lockWordField(at: MemoryLayout<LockWord>.offset(of: \LockWord.holderBits)!)
    }

    /// The address of a field of the holder's ``LockWord`` at `offset` bytes from its
    /// start (the platform word itself is at 0).
    @inlinable @inline(__always)
    func lockWordField<Field>(at offset: Int, as _: Field.Type = Field.self) -> UnsafeMutablePointer<Field> {
        (UnsafeMutableRawPointer(firstStoredProperty(of: self, as: LockWord.self)) + offset)
            .assumingMemoryBound(to: Field.self)
    }

    /// Takes the lock, waiting while another thread holds it. Never call it on a thread
    /// that holds this lock already.
    @inlinable @inline(__always)
    package func lock() {
        #if DEBUG
            LockOwnership.willLock(self)
        #endif
        PlatformLock.lock(lockWordAddress, of: self)
        #if DEBUG
            LockOwnership.didLock(self)
        #endif
    }

    /// Releases the lock this thread holds.
    @inlinable @inline(__always)
    package func unlock() {
        #if DEBUG
            LockOwnership.willUnlock(self)
        #endif
        PlatformLock.unlock(lockWordAddress, of: self)
    }
}

/// The lock's word, 4 bytes its holder may use (in what would otherwise be padding), and
/// in debug builds the thread that holds the lock.
@usableFromInline
package struct LockWord {
    /// Only ever reached through its address, as the platform's lock.
    @usableFromInline var platform = PlatformLock.initialWord
    /// The holder's own flags (a future's storage keeps its promise's word here: two
    /// flags and the promise's origin). Reached only atomically, through
    /// ``LockHolder/holderBitsAddress``.
    @usableFromInline var holderBits: UInt32 = 0
    #if DEBUG
        /// The holding thread (``fb_current_thread()``), 0 when free; reached only
        /// atomically, through its address.
        @usableFromInline var owner = 0
    #endif

    @inlinable
    package init() {}
}

#if canImport(Darwin)
    /// `os_unfair_lock` (macOS 10.12, iOS 10): it records its owner, so waiting donates
    /// priority.
    @usableFromInline
    package enum PlatformLock {
        @usableFromInline package typealias Word = os_unfair_lock
        @inlinable static var initialWord: Word { os_unfair_lock() }

        @inlinable @inline(__always)
        static func lock(_ word: UnsafeMutablePointer<Word>, of object: AnyObject) {
            os_unfair_lock_lock(word)
        }

        @inlinable @inline(__always)
        static func unlock(_ word: UnsafeMutablePointer<Word>, of object: AnyObject) {
            os_unfair_lock_unlock(word)
        }
    }
#else
    /// The word is 0 (unlocked), 1 (locked) or 2 (locked, and a thread may be parked).
    @usableFromInline
    package enum PlatformLock {
        @usableFromInline package typealias Word = UInt32
        @inlinable static var initialWord: Word { 0 }

        @inlinable @inline(__always)
        static func lock(_ word: UnsafeMutablePointer<Word>, of object: AnyObject) {
            if !fb_u32_compare_exchange_acquire(word, 0, 1) {
                lockContended(word, of: object)
            }
        }

        @inlinable @inline(__always)
        static func unlock(_ word: UnsafeMutablePointer<Word>, of object: AnyObject) {
            if fb_u32_exchange_release(word, 0) == 2 {
                ParkingLot.wakeAll(parkedOn: object)
            }
        }

        /// Spins while the holder is likely to be about to release, then parks: marks the
        /// word 2 so that the unlocking thread wakes the parked ones, and sleeps until it
        /// does.
        @usableFromInline @inline(never)
        static func lockContended(_ word: UnsafeMutablePointer<Word>, of object: AnyObject) {
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
    /// Where threads sleep while a ``LockHolder``'s lock is contended: a fixed table of
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

        static func bucket(for object: AnyObject) -> Int {
            let address = UInt(bitPattern: ObjectIdentifier(object))
            return Int((address >> 4 ^ address >> 12) % UInt(bucketCount))
        }

        /// Sleeps until woken, unless `object`'s word no longer holds `value`. The check and
        /// the sleep happen under the bucket's mutex, which the waking thread takes too: no
        /// wake-up is lost. May return spuriously; callers loop.
        static func park(on object: AnyObject, whileWordIs value: UInt32) {
            let bucket = bucket(for: object)
            pthread_mutex_lock(mutexes + bucket)
            if fb_u32_load_relaxed(firstStoredProperty(of: object, as: UInt32.self)) == value {
                pthread_cond_wait(conditions + bucket, mutexes + bucket)
            }
            pthread_mutex_unlock(mutexes + bucket)
        }

        /// Wakes every thread parked in `object`'s bucket.
        @usableFromInline @inline(never)
        static func wakeAll(parkedOn object: AnyObject) {
            let bucket = bucket(for: object)
            pthread_mutex_lock(mutexes + bucket)
            pthread_cond_broadcast(conditions + bucket)
            pthread_mutex_unlock(mutexes + bucket)
        }
    }
#endif

/// A small lock-protected box for state that is not a future's (the diagnostics
/// handler, test helpers, per-call bookkeeping, every signal and operator of Reactive).
// @unchecked Sendable: `state` is only reached through `withLock`, which holds the
// lock for the whole access; `State: Sendable` keeps values moved in and out safe.
@usableFromInline
package final class Locked<State: Sendable>: LockHolder, @unchecked Sendable {
    /// First, as ``LockHolder`` requires.
    @usableFromInline
    var word = LockWord()

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
