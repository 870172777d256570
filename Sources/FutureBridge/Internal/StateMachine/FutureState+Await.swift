import Dispatch

/// A task or a thread waiting for a future's outcome that may leave before it comes (a
/// cancelled task, a wait that timed out): it knows its place among the future's
/// callbacks, so that leaving removes it at once instead of leaving it registered until
/// the future completes.
// @unchecked Sendable: `slot` (and the fields of the subclasses marked so) is read and
// written only under the lock of the one future it registers with.
@usableFromInline
class Registration: @unchecked Sendable {
    /// Not among the callbacks: not registered yet, or left, or taken by the completion.
    @inlinable static var unregistered: Int { -1 }

    /// ``unregistered``, or its index in the future's attachment list.
    @usableFromInline
    var slot = Registration.unregistered

    @inlinable
    init() {}
}

/// One task suspended on a future (``FutureStorage/awaitOutcome()``).
// @unchecked Sendable: `continuation` and `isCancelled` are read and written only under
// the future's lock, except that the completion resumes the continuation after taking
// the awaiter out of the state under that lock (nobody else reaches it then).
@usableFromInline
final class Awaiter<Value: Sendable>: Registration, @unchecked Sendable {
    @usableFromInline
    var continuation: UnsafeContinuation<Outcome<Value>, Never>?
    /// The task was cancelled before it registered.
    @usableFromInline
    var isCancelled = false

    @inlinable
    override init() {}

    /// Not inlined: it would grow the loop that runs every future's callbacks.
    @usableFromInline @inline(never)
    func resume(with outcome: Outcome<Value>) {
        continuation?.resume(returning: outcome)
    }
}

/// One thread blocked in ``Future/wait(timeout:)``.
// @unchecked Sendable: `slot` is guarded by the future's lock; the semaphore is
// thread-safe.
@usableFromInline
final class Waiter: Registration, @unchecked Sendable {
    @usableFromInline
    let semaphore = DispatchSemaphore(value: 0)

    @inlinable
    override init() {}

    @usableFromInline @inline(never)
    func wake() {
        semaphore.signal()
    }
}

/// Awaiting, as events of the one state machine: an awaiter or a waiter is a callback
/// that knows its place, so that leaving removes it at once.
extension FutureState {
    /// A task arrives to await the outcome with `continuation`: the outcome if there is
    /// one (or `.cancelled` if the task was cancelled before it got here), else `nil`:
    /// the task is registered, holding an interest, and the completion resumes it.
    @inlinable
    mutating func awaiterArrived(
        _ awaiter: Awaiter<Value>, continuation: UnsafeContinuation<Outcome<Value>, Never>
    ) -> Outcome<Value>? {
        if let outcome { return outcome }
        if awaiter.isCancelled { return .cancelled }
        awaiter.continuation = continuation
        interestAdded()
        awaiter.slot = attach(.awaiter(awaiter))
        return nil
    }

    @usableFromInline
    enum AwaiterCancelledAction {
        /// Completed: the completion resumes (or resumed) the task.
        case alreadyCompleted
        /// Resume the task with `.cancelled`, then run the actions its withdrawn interest
        /// made due, if any.
        case resume(UnsafeContinuation<Outcome<Value>, Never>, CancelActions?)
        /// The task had not registered yet: it will find itself cancelled when it does.
        /// Run the actions its cancel vote made due, if any.
        case voted(CancelActions?)
    }

    /// The awaiting task was cancelled: it leaves at once, withdrawing its interest with
    /// a cancel vote.
    @inlinable
    mutating func awaiterCancelled(_ awaiter: Awaiter<Value>) -> AwaiterCancelledAction {
        guard !isCompleted else { return .alreadyCompleted }
        guard awaiter.slot != Registration.unregistered, let continuation = awaiter.continuation else {
            awaiter.isCancelled = true
            return .voted(cancellationRequested())
        }
        unregister(awaiter)
        awaiter.continuation = nil
        return .resume(continuation, interestWithdrawn(cancelling: true))
    }

    /// A thread arrives to wait: the outcome if there is one, else `nil`: the waiter is
    /// registered (without an interest: waiting asks nothing of the producer).
    @inlinable
    mutating func waiterArrived(_ waiter: Waiter) -> Outcome<Value>? {
        if let outcome { return outcome }
        waiter.slot = attach(.waiter(waiter))
        return nil
    }

    /// A waiting thread gives up: `nil` once it is removed, or the outcome if the future
    /// completed meanwhile (its completion wakes, or woke, the waiter).
    @inlinable
    mutating func waiterLeft(_ waiter: Waiter) -> Outcome<Value>? {
        if let outcome { return outcome }
        unregister(waiter)
        return nil
    }

    /// The callbacks registered now, awaiters and waiters included (for ``isAwaited``
    /// and tests).
    var registeredCallbackCount: Int {
        guard case .pending(let pending) = phase else { return 0 }
        var count = pending.first == nil ? 0 : 1
        if case .list(let list)? = attachments {
            for attachment in list {
                switch attachment {
                case .callback, .awaiter, .waiter: count += 1
                case .cancel, .follows, .vacated: break
                }
            }
        }
        return count
    }

    /// The tasks suspended awaiting the outcome now (0 once completed).
    var awaiterCount: Int {
        guard !isCompleted, case .list(let list)? = attachments else { return 0 }
        return list.reduce(0) { count, attachment in
            if case .awaiter = attachment { count + 1 } else { count }
        }
    }

    /// Removes a registered awaiter or waiter. Its place becomes ``Attachment/vacated``;
    /// vacated places at the end of the list go at once, the others when the list is
    /// next full (``attach(_:)``), so that every removal takes constant time.
    @inlinable
    mutating func unregister(_ registration: Registration) {
        let slot = registration.slot
        registration.slot = Registration.unregistered
        guard case .list(var list)? = attachments.take() else {
            preconditionFailure("a registered awaiter or waiter is missing from its future")
        }
        list[slot] = .vacated
        while case .vacated? = list.last { list.removeLast() }
        if list.isEmpty {
            attachments = nil
        } else if list.count == 1, case .cancel(.forward(let upstream)) = list[0] {
            attachments = .forward(upstream)
        } else if list.count == 1, case .follows(let source) = list[0] {
            attachments = .follows(source)
        } else {
            attachments = .list(list)
        }
    }

    /// Drops vacated places from `list`, telling the awaiters and waiters after them
    /// where they are now.
    @inlinable
    static func dropVacated(from list: inout [Attachment<Value>]) {
        guard list.contains(where: { if case .vacated = $0 { true } else { false } }) else { return }
        list.removeAll { if case .vacated = $0 { true } else { false } }
        for (index, attachment) in list.enumerated() { attachment.registration?.slot = index }
    }
}
