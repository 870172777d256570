import Dispatch

/// Whether code runs on the main queue, where the main actor runs.
///
/// Not `Thread.isMainThread`: on Linux a program that calls `dispatchMain()` (as Swift's
/// async `main` and test runners do) drains the main queue on a thread that is not the
/// process's first thread, so the main actor is not "the main thread" there. On Darwin
/// the main thread counts as the main queue even outside a queued block.
@usableFromInline
enum MainQueue {
    // nonisolated(unsafe): set once, here, before any read; libdispatch's queue-specific
    // storage is itself thread-safe, and the key object is never mutated.
    nonisolated(unsafe) static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// `true` on the main queue (and so on the main actor).
    @usableFromInline
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}
