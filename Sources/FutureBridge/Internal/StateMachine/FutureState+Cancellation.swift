// Cancellation bookkeeping: interests, votes and the request's cancel actions.

extension FutureState {

    /// A consumer takes an interest in the value. No effect once completed.
    @inlinable @inline(__always)
    mutating func interestAdded() {
        guard !isCompleted else { return }
        precondition(interests < .max, "too many interests in one future")
        interests += 1
    }

    /// A consumer gives its interest back: `cancelling` when it no longer wants the
    /// value, not cancelling when it simply goes away. Returns the actions to run when
    /// this makes the request due.
    @inlinable @inline(__always)
    mutating func interestWithdrawn(cancelling: Bool) -> CancelActions? {
        guard !isCompleted else { return nil }
        precondition(interests > 0, "interest withdrawn more often than taken")
        interests -= 1
        if cancelling { _ = insert(.cancelWanted) }
        return takeActionsIfRequestIsDue()
    }

    /// A consumer with no interest of its own asks for cancellation (`requestCancellation()`).
    @inlinable @inline(__always)
    mutating func cancellationRequested() -> CancelActions? {
        guard insert(.cancelWanted) else { return nil }
        return takeActionsIfRequestIsDue()
    }

    /// Delivers the request if it is due, taking the actions that must run (the
    /// callbacks stay).
    @inlinable @inline(__always)
    mutating func takeActionsIfRequestIsDue() -> CancelActions? {
        let flags = flags
        guard flags.contains(.cancelWanted), interests == 0, !flags.contains(.cancellationRequested) else { return nil }
        _ = insert(.cancellationRequested)
        // The forwarding edges stay (see ``Attachments``); cancel handlers are released.
        switch attachments {
        case nil:
            return CancelActions.nothing
        case .forward(let upstream)?, .follows(let upstream)?:
            return .forward(upstream)
        case .list(let list)?:
            var actions: [CancelAction] = []
            var kept: [Attachment<Value>] = []
            for attachment in list {
                switch attachment {
                case .cancel(.forward(let upstream)), .follows(let upstream):
                    actions.append(.forward(upstream))
                    kept.append(attachment)
                case .cancel(let action): actions.append(action)
                case .vacated: break
                case .callback, .awaiter, .waiter:
                    attachment.registration?.slot = kept.count
                    kept.append(attachment)
                }
            }
            attachments = kept.isEmpty ? nil : .list(kept)
            return .list(actions)
        }
    }

    @usableFromInline
    enum JoinAction {
        /// Joined: the callback is stored and an interest held.
        case joined
        /// The value is there: run the callback with it now (no interest needed).
        case runNow(Outcome<Value>)
        /// Told to stop (a cancel request went through), or ended without a value:
        /// not to be shared with a new consumer. Nothing changed.
        case refused
    }

    /// A new consumer wants to share this future's work (``FutureCache``): it takes an
    /// interest and registers `callback` in one step, unless the work was told to stop
    /// or failed, so that it never joins work that is being cancelled.
    @inlinable
    mutating func consumerJoined(_ callback: Callback<Value>) -> JoinAction {
        if let outcome {
            if case .success = outcome { return .runNow(outcome) }
            return .refused
        }
        if flags.contains(.cancellationRequested) { return .refused }
        interestAdded()
        _ = addCallback(callback)
        return .joined
    }

    @usableFromInline
    enum AddCancelActionResult {
        /// Kept; runs when a request arrives.
        case stored
        /// The request already arrived: run the action now.
        case runNow
        /// Completed: the action will never run; release it outside the lock.
        case discard
    }

    @inlinable
    mutating func addCancelAction(_ action: CancelAction) -> AddCancelActionResult {
        guard !isCompleted else { return .discard }
        if flags.contains(.cancellationRequested) { return .runNow }
        if attachments == nil, case .forward(let upstream) = action {
            attachments = .forward(upstream)
        } else {
            attach(.cancel(action))
        }
        return .stored
    }

    /// Whether a cancel request was delivered to this (pending) future's producer.
    @inlinable
    var isCancellationRequested: Bool {
        flags.contains(.cancellationRequested)
    }
}
