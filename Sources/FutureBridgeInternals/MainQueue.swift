// Invariants: the main queue's specific value is set once, on first use, before any read;
// a closure run by `runOnMainActor` runs on the main queue (so on the main actor), at once
// when the caller is already there, otherwise queued in `DispatchQueue.main`'s order.

import Dispatch

/// Whether code runs on the main queue, where the main actor runs.
///
/// Not `Thread.isMainThread`: on Linux a program that calls `dispatchMain()` (as Swift's
/// async `main` and test runners do) drains the main queue on a thread that is not the
/// process's first thread, so the main actor is not "the main thread" there. On Darwin
/// the main thread counts as the main queue even outside a queued block.
@usableFromInline
package enum MainQueue {
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
    package static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker.key) == true
    }

    /// Runs `job` at once when called on the main queue, otherwise queues it on
    /// `DispatchQueue.main` (first in, first out): `ExecutionContext.mainImmediate`.
    @inlinable
    package static func runNowOrQueue(_ job: @escaping @Sendable () -> Void) {
        if isCurrent { job() } else { DispatchQueue.main.async(execute: job) }
    }

    /// Runs `body` on the main actor, as ``runNowOrQueue(_:)`` runs a job.
    ///
    /// Asserting main-actor isolation is sound here: in both cases the closure runs on
    /// the main queue, which is where the main actor runs.
    @inlinable
    package static func runOnMainActor(_ body: @escaping @MainActor () -> Void) {
        runNowOrQueue { MainActor.assumeIsolated { body() } }
    }
}
