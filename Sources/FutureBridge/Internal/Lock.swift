#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one lock primitive of the library.
///
/// Backed by `pthread_mutex_t` rather than `Synchronization.Mutex`: on Linux the
/// latter's futex is invisible to ThreadSanitizer, which then reports false races on
/// every access it protects (see `shared/TOOLCHAIN.md`). Swapping the lock means
/// changing this file only.
///
/// The mutex must never move in memory, so it lives in tail-allocated storage of a
/// `ManagedBuffer` (``LockedStorage``) or in a heap allocation (``Lock``).
@usableFromInline
enum LockPrimitive {
    @usableFromInline
    typealias Raw = pthread_mutex_t

    @inlinable
    static func initialize(_ mutex: UnsafeMutablePointer<Raw>) {
        mutex.initialize(to: Raw())
        let error = pthread_mutex_init(mutex, nil)
        precondition(error == 0, "pthread_mutex_init failed: \(error)")
    }

    @inlinable
    static func destroy(_ mutex: UnsafeMutablePointer<Raw>) {
        let error = pthread_mutex_destroy(mutex)
        precondition(error == 0, "pthread_mutex_destroy failed: \(error)")
        mutex.deinitialize(count: 1)
    }

    @inlinable @inline(__always)
    static func lock(_ mutex: UnsafeMutablePointer<Raw>) {
        let error = pthread_mutex_lock(mutex)
        assert(error == 0, "pthread_mutex_lock failed: \(error)")
    }

    @inlinable @inline(__always)
    static func unlock(_ mutex: UnsafeMutablePointer<Raw>) {
        let error = pthread_mutex_unlock(mutex)
        assert(error == 0, "pthread_mutex_unlock failed: \(error)")
    }
}

/// A value of type `State` and the mutex that guards it, in one allocation.
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
        try withUnsafeMutablePointers { state, mutex in
            LockPrimitive.lock(mutex)
            defer { LockPrimitive.unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}

/// A small lock-protected box for state that is not a future's (the diagnostics
/// handler, test helpers, per-call bookkeeping, and the Reactive module, which shares
/// this one lock through `package` access).
// @unchecked Sendable: `state` is only reached through `withLock`, which holds the
// mutex for the whole access; `State: Sendable` keeps values moved in and out safe.
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
