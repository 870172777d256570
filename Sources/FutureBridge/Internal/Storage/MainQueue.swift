import Dispatch

/// Whether code runs on the main queue, where the main actor runs.
///
/// Not `Thread.isMainThread`: on Linux a program that calls `dispatchMain()` (as Swift's
/// async `main` and test runners do) drains the main queue on a thread that is not the
/// process's first thread, so the main actor is not "the main thread" there. On Darwin
/// the main thread counts as the main queue even outside a queued block.
@usableFromInline
enum MainQueue {
    /// The key the main queue carries. Sendable on Linux's overlay, not on every SDK's.
    // @unchecked Sendable: the key object is never mutated after it is made, and
    // libdispatch's queue-specific storage is itself thread-safe.
    struct Key: @unchecked Sendable {
        let key = DispatchSpecificKey<Bool>()
    }

    /// Set on the main queue once, before the first read.
    static let marker: Key = {
        let marker = Key()
        DispatchQueue.main.setSpecific(key: marker.key, value: true)
        return marker
    }()

    /// `true` on the main queue (and so on the main actor).
    @usableFromInline
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker.key) == true
    }
}
