/// A callback waiting for a future's outcome. Callbacks are stored already wrapped for
/// their executor: the storage only ever calls them.
@usableFromInline
typealias OutcomeCallback<Value> = @Sendable (Outcome<Value>) -> Void

/// A promise's answer to a cancel request.
@usableFromInline
typealias CancelHandler = @Sendable () -> Void

/// The whole mutable state of one future, as a pure state machine.
///
/// Each event is a `mutating func` named after what happened and returns what must be
/// done; the storage does it after releasing the lock. No function here calls user
/// code, so every transition can be tested without threads.
///
/// Cancellation bookkeeping (FutureKit's model): consumers that want the value may hold
/// an *interest*. A consumer that no longer wants it *withdraws* its interest with a
/// cancel vote. The request goes to the producer's cancel handlers once somebody voted
/// and no interest is held any more; it is delivered at most once.
@usableFromInline
enum FutureState<Value: Sendable> {
    case pending(Pending)
    case completed(Outcome<Value>)
    /// Transient: set while a `pending` payload is being mutated in place, so that its
    /// array is uniquely referenced. Never visible outside a mutating function.
    case modifying

    @usableFromInline
    struct Pending {
        @usableFromInline
        var callbacks = CallbackList<Value>()
        @usableFromInline
        var cancelHandlers = InlineList<CancelHandler>()
        /// Consumers currently holding an interest.
        @usableFromInline
        var interests: Int = 0
        /// Some consumer asked for cancellation.
        @usableFromInline
        var cancelWanted = false
        /// The request was delivered: handlers taken; later handlers run at once.
        @usableFromInline
        var cancelRequested = false
        /// The promise was told to follow another future (``bind()``): only that
        /// future's outcome may complete it now.
        @usableFromInline
        var isBound = false

        @inlinable
        init() {}

        /// Delivers the request if it is due, taking the handlers that must run.
        @inlinable
        mutating func takeHandlersIfRequestIsDue() -> InlineList<CancelHandler>? {
            guard cancelWanted, interests == 0, !cancelRequested else { return nil }
            cancelRequested = true
            defer { cancelHandlers = InlineList() }
            return cancelHandlers
        }
    }

    @inlinable
    static var initial: FutureState { .pending(Pending()) }

    /// Moves the state out, leaving ``modifying``; the caller puts a state back. Moving
    /// instead of pattern-matching `self` avoids copying the whole state (and retaining
    /// every closure in it) on each event.
    @inlinable @inline(__always)
    mutating func take() -> FutureState {
        let state = consume self
        self = .modifying
        return state
    }

    /// Mutates the pending payload in place; returns `nil` when already completed.
    @inlinable @inline(__always)
    mutating func withPending<R>(_ body: (inout Pending) -> R) -> R? {
        switch take() {
        case .pending(var pending):
            defer { self = .pending(pending) }
            return body(&pending)
        case let other:
            self = other
            return nil
        }
    }

    @inlinable
    var outcome: Outcome<Value>? {
        if case .completed(let outcome) = self { outcome } else { nil }
    }

    // MARK: Completion

    @usableFromInline
    enum CompleteAction {
        /// The future was already completed: nothing happens, the caller lost.
        case alreadyCompleted
        /// Run `callbacks` with the outcome. The cancel handlers are returned only to be
        /// released outside the lock (they may hold the last reference to user objects).
        case runCallbacks(CallbackList<Value>, released: InlineList<CancelHandler>)
    }

    /// Completes with `outcome`. A bound future accepts only the completion that comes
    /// from the future it follows (`fromBinding`).
    @inlinable
    mutating func complete(_ outcome: Outcome<Value>, fromBinding: Bool = false) -> CompleteAction {
        switch take() {
        case .pending(let pending) where fromBinding || !pending.isBound:
            self = .completed(outcome)
            return .runCallbacks(pending.callbacks, released: pending.cancelHandlers)
        case let other:
            self = other
            return .alreadyCompleted
        }
    }

    /// The promise will take its outcome from another future. `false` if it is already
    /// completed or bound.
    @inlinable
    mutating func bind() -> Bool {
        withPending { pending in
            if pending.isBound { return false }
            pending.isBound = true
            return true
        } ?? false
    }

    @usableFromInline
    enum AddCallbackAction {
        case stored
        case runNow(Outcome<Value>)
    }

    @inlinable
    mutating func addCallback(_ callback: @escaping OutcomeCallback<Value>) -> AddCallbackAction {
        addCallback { callback }
    }

    /// Stores the callback `makeCallback` creates, which it calls only if the future is
    /// pending; otherwise returns `.runNow` and creates nothing.
    @inlinable @inline(__always)
    mutating func addCallback(_ makeCallback: () -> OutcomeCallback<Value>) -> AddCallbackAction {
        switch take() {
        case .pending(var pending):
            pending.callbacks.append(makeCallback())
            self = .pending(pending)
            return .stored
        case .completed(let outcome):
            self = .completed(outcome)
            return .runNow(outcome)
        case .modifying:
            preconditionFailure("FutureState observed while being modified")
        }
    }

    // MARK: Cancellation

    /// A consumer takes an interest in the value. No effect once completed.
    @inlinable
    mutating func interestAdded() {
        withPending { $0.interests += 1 }
    }

    /// A consumer gives its interest back: `cancelling` when it no longer wants the
    /// value, not cancelling when it simply goes away. Returns the handlers to run when
    /// this makes the request due.
    @inlinable
    mutating func interestWithdrawn(cancelling: Bool) -> InlineList<CancelHandler>? {
        withPending { pending in
            precondition(pending.interests > 0, "interest withdrawn more often than taken")
            pending.interests -= 1
            if cancelling { pending.cancelWanted = true }
            return pending.takeHandlersIfRequestIsDue()
        } ?? nil
    }

    /// A consumer with no interest of its own asks for cancellation (`cancel()`).
    @inlinable
    mutating func cancelRequested() -> InlineList<CancelHandler>? {
        withPending { pending in
            pending.cancelWanted = true
            return pending.takeHandlersIfRequestIsDue()
        } ?? nil
    }

    @usableFromInline
    enum AddCancelHandlerAction {
        /// Kept; runs when a request arrives.
        case stored
        /// The request already arrived: run the handler now.
        case runNow
        /// Completed: the handler will never run; release it outside the lock.
        case discard
    }

    @inlinable
    mutating func addCancelHandler(_ handler: @escaping CancelHandler) -> AddCancelHandlerAction {
        withPending { pending in
            if pending.cancelRequested { return .runNow }
            pending.cancelHandlers.append(handler)
            return .stored
        } ?? .discard
    }

    /// Whether a cancel request was delivered to this (pending) future's producer.
    @inlinable
    var isCancelRequested: Bool {
        switch self {
        case .pending(let pending): pending.cancelRequested
        case .completed, .modifying: false
        }
    }
}
