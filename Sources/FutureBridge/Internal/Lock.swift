import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one lock of the library: a 4-byte word in the object it guards, locked with one
/// atomic instruction when uncontended; when contended it spins briefly, then parks the
/// thread.
///
/// Not `pthread_mutex_t`: that is 40 bytes per future and needs an init and a destroy
/// call, and a contended lock sleeps in the kernel at once, although the library's
/// critical sections last nanoseconds (a resolving thread that finds an awaiting task
/// registering would sleep and be woken, microseconds each time). Not
/// `Synchronization.Mutex`: on Linux its futex is invisible to ThreadSanitizer, which then
/// reports false races on everything it guards (see `shared/TOOLCHAIN.md`). This lock is
/// built only from `Atomic` with acquire/release orderings, which ThreadSanitizer models,
/// and parks on pthread condition variables, which it also sees.
///
/// The word is 0 (unlocked), 1 (locked) or 2 (locked, and a thread may be parked). A
/// class, so that the word never moves; subclasses add the state it guards as stored
/// properties, in the same allocation, and reach them only between ``lock()`` and
/// ``unlock()``.
@usableFromInline
package class LockedObject {
    @usableFromInline
    final let word = Atomic<UInt32>(0)

    @inlinable
    init() {}

    @inlinable @inline(__always)
    package final func lock() {
        if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            lockContended()
        }
    }

    @inlinable @inline(__always)
    package final func unlock() {
        if word.exchange(0, ordering: .releasing) == 2 {
            ParkingLot.wakeAll(parkedOn: self)
        }
    }

    /// Spins while the holder is likely to be about to release, then parks: marks the word
    /// 2 so that the unlocking thread wakes the parked ones, and sleeps until it does.
    @usableFromInline @inline(never)
    final func lockContended() {
        for _ in 0..<1_000 {
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
        }
        // Taking the lock as 2 may be conservative (one wake-up too many), never wrong.
        while word.exchange(2, ordering: .acquiring) != 0 {
            ParkingLot.park(on: self, whileWordIs: 2)
        }
    }
}

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
        if object.word.load(ordering: .relaxed) == value {
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
