import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one lock primitive of the library: a 4-byte word that is locked with one atomic
/// instruction when uncontended, spins briefly when contended, and then parks the thread.
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
/// The word is 0 (unlocked), 1 (locked) or 2 (locked, and a thread may be parked). It
/// must never move in memory, so it lives in tail-allocated storage of a `ManagedBuffer`
/// (``LockedStorage``).
@usableFromInline
enum LockPrimitive {
    @usableFromInline
    typealias Raw = Atomic<UInt32>

    @inlinable
    static func initialize(_ word: UnsafeMutablePointer<Raw>) {
        word.initialize(to: Raw(0))
    }

    @inlinable
    static func destroy(_ word: UnsafeMutablePointer<Raw>) {
        word.deinitialize(count: 1)
    }

    @inlinable @inline(__always)
    static func lock(_ word: UnsafeMutablePointer<Raw>) {
        if !word.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            lockContended(word)
        }
    }

    @inlinable @inline(__always)
    static func unlock(_ word: UnsafeMutablePointer<Raw>) {
        if word.pointee.exchange(0, ordering: .releasing) == 2 {
            ParkingLot.wakeAll(parkedOn: word)
        }
    }

    /// Spins while the holder is likely to be about to release, then parks: marks the word
    /// 2 so that the unlocking thread wakes the parked ones, and sleeps until it does.
    @usableFromInline @inline(never)
    static func lockContended(_ word: UnsafeMutablePointer<Raw>) {
        for _ in 0..<1_000 {
            if word.pointee.load(ordering: .relaxed) == 0,
                word.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            {
                return
            }
        }
        // Taking the lock as 2 may be conservative (one wake-up too many), never wrong.
        while word.pointee.exchange(2, ordering: .acquiring) != 0 {
            ParkingLot.park(on: word, whileValueIs: 2)
        }
    }
}

/// Where threads sleep while a ``LockPrimitive`` word is contended: a fixed table of
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

    static func bucket(for word: UnsafeMutablePointer<LockPrimitive.Raw>) -> Int {
        let address = UInt(bitPattern: word)
        return Int((address >> 4 ^ address >> 12) % UInt(bucketCount))
    }

    /// Sleeps until woken, unless `word` no longer holds `value`. The check and the sleep
    /// happen under the bucket's mutex, which the waking thread takes too: no wake-up is
    /// lost. May return spuriously; callers loop.
    static func park(on word: UnsafeMutablePointer<LockPrimitive.Raw>, whileValueIs value: UInt32) {
        let bucket = bucket(for: word)
        pthread_mutex_lock(mutexes + bucket)
        if word.pointee.load(ordering: .relaxed) == value {
            pthread_cond_wait(conditions + bucket, mutexes + bucket)
        }
        pthread_mutex_unlock(mutexes + bucket)
    }

    /// Wakes every thread parked in `word`'s bucket.
    @usableFromInline @inline(never)
    static func wakeAll(parkedOn word: UnsafeMutablePointer<LockPrimitive.Raw>) {
        let bucket = bucket(for: word)
        pthread_mutex_lock(mutexes + bucket)
        pthread_cond_broadcast(conditions + bucket)
        pthread_mutex_unlock(mutexes + bucket)
    }
}

/// A value of type `State` and the lock word that guards it, in one allocation.
///
/// Subclasses add behaviour, never stored properties (a `ManagedBuffer` rule): all of
/// their mutable state is the header.
@usableFromInline
class LockedStorage<State>: ManagedBuffer<State, LockPrimitive.Raw> {
    /// Creates an instance of the dynamic type `self` holding `state`.
    @inlinable
    final class func make(_ state: State) -> Self {
        let buffer = self.create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { LockPrimitive.initialize($0) }
            return state
        }
        return unsafeDowncast(buffer, to: self)
    }

    deinit {
        withUnsafeMutablePointerToElements { LockPrimitive.destroy($0) }
    }

    /// Runs `body` with exclusive access to the state. `body` must not call out to
    /// user code: return what should happen and do it after the lock is released.
    @inlinable @inline(__always)
    final func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { state, word in
            LockPrimitive.lock(word)
            defer { LockPrimitive.unlock(word) }
            return try body(&state.pointee)
        }
    }
}

/// A small lock-protected box for state that is not a future's (the diagnostics
/// handler, test helpers, per-call bookkeeping, and the Reactive module, which shares
/// this one lock through `package` access).
// @unchecked Sendable: `state` is only reached through `withLock`, which holds the
// lock for the whole access; `State: Sendable` keeps values moved in and out safe.
@usableFromInline
package final class Locked<State: Sendable>: @unchecked Sendable {
    @usableFromInline
    let storage: LockedStorage<State>

    @inlinable
    package init(_ state: State) {
        storage = LockedStorage<State>.make(state)
    }

    @inlinable @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try storage.withLock(body)
    }
}
