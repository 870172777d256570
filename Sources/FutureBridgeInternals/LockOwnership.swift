// Invariants: `LockWord.owner` is written only by the thread that holds the lock (its own
// identity after taking it, 0 before releasing it), and read with relaxed atomics; a
// thread sees its own identity there only if it wrote it itself. Debug builds only.

#if DEBUG
    import FutureBridgeAtomics

    /// Debug builds only: each lock records the thread that holds it, so that taking a
    /// lock twice on one thread (which would deadlock) or releasing it on a thread that
    /// does not hold it (which would corrupt it) stops at once with a message that says
    /// so.
    ///
    /// The owner is written only by the thread that holds the lock and read with relaxed
    /// atomics: a thread comparing it with its own identity sees its own identity only if
    /// it wrote it itself.
    @usableFromInline
    enum LockOwnership {
        @inlinable @inline(__always)
        static func ownerAddress(of object: some LockHolder) -> UnsafeMutablePointer<Int> {
            object.lockWordField(at: MemoryLayout<LockWord>.offset(of: \LockWord.owner)!)
        }

        @inlinable @inline(__always)
        static func willLock(_ object: some LockHolder) {
            if fb_int_load_relaxed(ownerAddress(of: object)) == fb_current_thread() {
                fatalError(
                    "FUTUREBRIDGE LOCK MISUSE: a lock was taken twice by one thread (it would deadlock); "
                        + "code running under a FutureBridge lock called back into the same object")
            }
        }

        @inlinable @inline(__always)
        static func didLock(_ object: some LockHolder) {
            fb_int_store_relaxed(ownerAddress(of: object), fb_current_thread())
        }

        @inlinable @inline(__always)
        static func willUnlock(_ object: some LockHolder) {
            let owner = ownerAddress(of: object)
            guard fb_int_load_relaxed(owner) == fb_current_thread() else {
                fatalError("FUTUREBRIDGE LOCK MISUSE: a lock was released by a thread that does not hold it")
            }
            fb_int_store_relaxed(owner, 0)
        }
    }
#endif
