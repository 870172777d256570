import FutureBridgeAtomics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// How a thread reaches its trampoline: a C11 `_Thread_local` pointer, read without a
// retain.
//
// Invariant: a thread's trampoline is created by that thread (`makeCurrent()`), owned by
// it through one retain that the pthread key's destructor releases when the thread
// exits, and touched by no other thread (its fields are `@exclusivity(unchecked)` for
// that reason). The C pointer is set together with the key's value and cleared by the
// destructor before the release. So while any code runs on a thread, the pointer is
// either `nil` or points at a live trampoline that only this thread uses, and the
// unretained reference (`currentUnretained`, used through `_withUnsafeGuaranteedRef`) is
// valid for as long as the calling code runs. A destructor of another thread-local
// that completes a future after ours ran finds `nil` and makes a new trampoline, which
// the key releases in a later destructor round.
extension Trampoline {
    /// Releases a thread's trampoline when the thread exits (its only use: the trampoline
    /// is looked up through the C thread-local ``fb_thread_trampoline_get()``, which is
    /// cleared first, so a later destructor that completes a future makes a new one).
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let error = pthread_key_create(&key) { pointer in
            fb_thread_trampoline_set(nil)
            #if canImport(Darwin)
                Unmanaged<Trampoline>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<Trampoline>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(error == 0, "pthread_key_create failed: \(error)")
        return key
    }()

    /// This thread's trampoline.
    @inlinable @inline(__always)
    static var current: Trampoline {
        currentUnretained.takeUnretainedValue()
    }

    /// This thread's trampoline, unretained: the thread keeps it alive, and reaching it
    /// through `_withUnsafeGuaranteedRef` costs no retain and release (for every
    /// completion and every observation of a completed future).
    @inlinable @inline(__always)
    static var currentUnretained: Unmanaged<Trampoline> {
        if let pointer = fb_thread_trampoline_get() { return Unmanaged<Trampoline>.fromOpaque(pointer) }
        return makeCurrent()
    }

    /// Creates this thread's trampoline, owned by the thread (released when it exits).
    @usableFromInline @inline(never)
    static func makeCurrent() -> Unmanaged<Trampoline> {
        let trampoline = Unmanaged.passRetained(Trampoline())
        pthread_setspecific(key, trampoline.toOpaque())
        fb_thread_trampoline_set(trampoline.toOpaque())
        return trampoline
    }
}
