import FutureBridgeAtomics

/// How deep signal deliveries nest on the calling thread, so that a chain of any length
/// delivers with bounded stack.
///
/// Each operator of a chain observes the signal before it and sends to the next from its
/// handler: delivered inline, a value nests a few calls per operator, and about 5,000
/// chained maps overflowed a debug build's stack. So a send (and a source's start, which
/// observes the signal before it) first ``enter()``s a level: up to ``limit`` levels it
/// goes on inline, as fast as a direct call; past it, its work is handed to
/// ``deferUntilOutermostReturns(_:)`` and runs on this thread once the outermost level has
/// returned, where it may nest that deep again. The event's place in its signal's order
/// is taken before, so the order is the same either way.
///
/// ## Invariant
///
/// The record (`fb_send_nesting_t`, a C `_Thread_local`) belongs to one thread: only that
/// thread reads or writes it, so plain loads and stores suffice, and the pointer
/// ``enter()`` returns is used only on that thread, before the level is left. `deferred`
/// is `nil` or one retained ``DeferredSends``, created by the first deferral and released
/// by the outermost level once it has run every deferred job; since deferring happens
/// only ``limit`` levels deep, an outermost level exists whenever something is deferred,
/// and nothing is left behind when the thread exits.
@usableFromInline
enum SendNesting {
    /// How deep sends nest on one thread before they defer.
    @inlinable
    static var limit: Int { 64 }

    /// Enters one level: this thread's record if the caller may go on now (it then calls
    /// ``leave(_:)`` with it when done), or `nil` if this thread is ``limit`` levels deep:
    /// the caller then hands its work to ``deferUntilOutermostReturns(_:)``.
    @inlinable @inline(__always)
    static func enter() -> UnsafeMutablePointer<fb_send_nesting_t>? {
        let record = fb_current_send_nesting().unsafelyUnwrapped  // a thread-local's address
        let depth = record.pointee.depth
        guard depth < limit else { return nil }
        record.pointee.depth = depth + 1
        return record
    }

    /// Leaves the level ``enter()`` entered; the outermost runs the deferred work.
    @inlinable @inline(__always)
    static func leave(_ record: UnsafeMutablePointer<fb_send_nesting_t>) {
        let depth = record.pointee.depth - 1
        record.pointee.depth = depth
        if depth == 0 && record.pointee.deferred != nil { runDeferred(record) }
    }

    /// Queues `job` until the outermost level on this thread has returned.
    @usableFromInline
    static func deferUntilOutermostReturns(_ job: @escaping () -> Void) {
        let record = fb_current_send_nesting().unsafelyUnwrapped  // a thread-local's address
        let deferred: DeferredSends
        if let pointer = record.pointee.deferred {
            deferred = Unmanaged<DeferredSends>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            deferred = DeferredSends()
            record.pointee.deferred = Unmanaged.passRetained(deferred).toOpaque()
        }
        deferred.jobs.append(job)
    }

    /// Runs the deferred work, each job as if it were an outermost level (jobs may defer
    /// more), then releases the queue.
    @usableFromInline
    static func runDeferred(_ record: UnsafeMutablePointer<fb_send_nesting_t>) {
        guard let pointer = record.pointee.deferred else { return }
        let deferred = Unmanaged<DeferredSends>.fromOpaque(pointer)
        deferred._withUnsafeGuaranteedRef { deferred in
            while deferred.head < deferred.jobs.count {
                // Taken out of its slot, so that it is released as soon as it has run.
                let job = deferred.jobs[deferred.head].take()
                deferred.head += 1
                record.pointee.depth = 1
                job?()
                record.pointee.depth = 0
                // Reclaim the slots of jobs already run once they are half of the queue.
                if deferred.head >= 64 && deferred.head * 2 >= deferred.jobs.count {
                    deferred.jobs.removeSubrange(0..<deferred.head)
                    deferred.head = 0
                }
            }
        }
        record.pointee.deferred = nil
        deferred.release()
    }
}

/// The work one thread deferred past ``SendNesting/limit``; jobs before `head` have run.
// Only one thread ever touches it (see ``SendNesting``), so no lock and no Sendable.
@usableFromInline
final class DeferredSends {
    @usableFromInline @exclusivity(unchecked)
    var jobs: [(() -> Void)?] = []
    @usableFromInline @exclusivity(unchecked)
    var head = 0

    @usableFromInline
    init() {}
}
