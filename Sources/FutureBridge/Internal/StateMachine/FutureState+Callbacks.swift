// Registering callbacks and other attachments on a pending future.

extension FutureState {

    @usableFromInline
    enum AddCallbackAction {
        case stored
        case runNow(Outcome<Value>)
    }

    @inlinable
    mutating func addCallback(_ callback: Callback<Value>) -> AddCallbackAction {
        addCallback { callback }
    }

    /// Stores the callback `makeCallback` creates, which it calls only if the future is
    /// pending; otherwise returns `.runNow` and creates nothing.
    @inlinable @inline(__always)
    mutating func addCallback(_ makeCallback: () -> Callback<Value>) -> AddCallbackAction {
        // A completed future is only read: no moving the phase out and back.
        if case .completed(let stored) = phase { return .runNow(stored.outcome) }
        keep(makeCallback())
        return .stored
    }

    @usableFromInline
    enum MovingAddCallbackAction {
        case stored
        /// The future is completed: the callback comes back, to run with the outcome.
        case runNow(Outcome<Value>, Callback<Value>)
    }

    /// ``addCallback(_:)`` for a callback the caller gives up: moved into the state
    /// while pending, handed back when completed.
    @inlinable @inline(__always)
    mutating func addCallback(moving callback: consuming Callback<Value>) -> MovingAddCallbackAction {
        if case .completed(let stored) = phase { return .runNow(stored.outcome, callback) }
        keep(callback)
        return .stored
    }

    /// Keeps `callback` on this pending future: in the first slot if it is free, else at
    /// the end of the attachment list.
    @inlinable @inline(__always)
    mutating func keep(_ callback: consuming Callback<Value>) {
        guard case .pending(var pending) = takePhase() else {
            preconditionFailure("FutureState observed while being modified")
        }
        if pending.first == nil {
            pending.first = callback
        } else {
            attach(.callback(callback))
        }
        restorePhase(.pending(pending))
    }

    /// Appends to the attachment list, making one if needed; returns the new entry's
    /// index. A full list first drops the places of awaiters and waiters that left.
    @inlinable @discardableResult
    mutating func attach(_ attachment: Attachment<Value>) -> Int {
        switch attachments.take() {
        case nil:
            attachments = .list([attachment])
            return 0
        case .forward(let upstream):
            attachments = .list([.cancel(.forward(upstream)), attachment])
            return 1
        case .follows(let source):
            attachments = .list([.follows(source), attachment])
            return 1
        case .list(var list):
            if list.count == list.capacity { Self.dropVacated(from: &list) }
            list.append(attachment)
            attachments = .list(list)
            return list.count - 1
        }
    }

}
