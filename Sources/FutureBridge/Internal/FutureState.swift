/// The whole mutable state of one future, as a pure state machine.
///
/// Each event is a `mutating func` named after what happened and returns what must be
/// done; the storage does it after releasing the lock. No function here calls user
/// code, so every transition can be tested without threads.
///
/// Cancellation bookkeeping (FutureKit's model): consumers that want the value may hold
/// an *interest*. A consumer that no longer wants it *withdraws* its interest with a
/// cancel vote. The request goes to the producer's cancel actions once somebody voted
/// and no interest is held any more; it is delivered at most once.
///
/// Laid out to fit 32 bytes for small values (the future's whole allocation is then 64
/// bytes): the first callback inline, everything rarer behind one word.
@usableFromInline
struct FutureState<Value: Sendable> {
    @usableFromInline
    var phase: Phase
    /// Consumers currently holding an interest (meaningful while pending).
    @usableFromInline
    var interests: UInt32 = 0
    /// Callbacks after the first, and cancel actions (while pending).
    @usableFromInline
    var attachments: Attachments<Value>? = nil

    @usableFromInline
    enum Phase {
        case pending(Pending)
        case completed(StoredOutcome<Value>)
        /// Transient: set while the payload is being mutated in place. Never visible
        /// outside a mutating function.
        case modifying
    }

    @usableFromInline
    struct Pending {
        @usableFromInline
        var first: Callback<Value>? = nil
        @usableFromInline
        var flags: Flags = []

        @inlinable
        init() {}
    }

    @usableFromInline
    struct Flags: OptionSet {
        @usableFromInline
        var rawValue: UInt8

        @inlinable
        init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Some consumer asked for cancellation.
        @inlinable static var cancelWanted: Flags { Flags(rawValue: 1) }
        /// The request was delivered: actions taken; later handlers run at once.
        @inlinable static var cancelRequested: Flags { Flags(rawValue: 2) }
        /// The promise was told to follow another future (``bind()``): only that
        /// future's outcome may complete it now.
        @inlinable static var bound: Flags { Flags(rawValue: 4) }
    }

    @inlinable
    init(_ phase: Phase) {
        self.phase = phase
    }

    @inlinable
    static var initial: FutureState { FutureState(.pending(Pending())) }

    /// A pending state whose cancel requests go to `upstream`.
    @inlinable
    static func forwarding(to upstream: AnyFutureBox) -> FutureState {
        var state = initial
        state.attachments = .forward(upstream)
        return state
    }

    /// Moves the phase out, leaving ``Phase/modifying``; the caller puts one back.
    /// Moving instead of pattern-matching avoids copying the callback (a retain) on
    /// each event.
    @inlinable @inline(__always)
    mutating func takePhase() -> Phase {
        var taken = Phase.modifying
        swap(&taken, &phase)
        return taken
    }

    @inlinable
    var outcome: Outcome<Value>? {
        if case .completed(let stored) = phase { stored.outcome } else { nil }
    }

    @inlinable @inline(__always)
    var isCompleted: Bool {
        if case .completed = phase { true } else { false }
    }

    @inlinable @inline(__always)
    var flags: Flags {
        if case .pending(let pending) = phase { pending.flags } else { [] }
    }

    /// Sets `flag`; `false` when completed (nothing changes).
    @inlinable @inline(__always)
    mutating func insert(_ flag: Flags) -> Bool {
        switch takePhase() {
        case .pending(var pending):
            pending.flags.insert(flag)
            phase = .pending(pending)
            return true
        case let other:
            phase = other
            return false
        }
    }

    // MARK: Completion

    /// The callbacks to run once, and whatever else the pending future held, to be
    /// released after the lock (cancel handlers may hold the last reference to user
    /// objects).
    @usableFromInline
    struct Callbacks: Sequence {
        @usableFromInline let first: Callback<Value>?
        @usableFromInline let attachments: Attachments<Value>?

        @inlinable
        init(first: Callback<Value>?, attachments: Attachments<Value>?) {
            self.first = first
            self.attachments = attachments
        }

        /// Nothing to run. (Awaiters and waiters live in the list only, so the first
        /// callback alone does not tell.)
        @inlinable
        var isEmpty: Bool {
            guard first == nil else { return false }
            if case .list? = attachments { return false }
            return true
        }

        /// Runs every handler with `outcome`, and resumes every awaiter and waiter, in
        /// registration order (the first callback first).
        @inlinable
        func run(with outcome: Outcome<Value>) {
            if let first { first(outcome) }
            guard case .list(let list)? = attachments else { return }
            for attachment in list {
                switch attachment {
                case .callback(let callback): callback(outcome)
                case .awaiter(let awaiter): awaiter.resume(with: outcome)
                case .waiter(let waiter): waiter.wake()
                case .cancel, .follows, .vacated: break
                }
            }
        }

        @inlinable
        func makeIterator() -> Iterator {
            guard case .list(let list)? = attachments else { return Iterator(first: first, rest: []) }
            return Iterator(first: first, rest: list)
        }

        /// The handlers (not the awaiters and waiters): first the inline callback, then
        /// the listed ones, in registration order.
        @usableFromInline
        struct Iterator: IteratorProtocol {
            @usableFromInline var first: Callback<Value>?
            @usableFromInline var rest: IndexingIterator<[Attachment<Value>]>

            @inlinable
            init(first: Callback<Value>?, rest: [Attachment<Value>]) {
                self.first = first
                self.rest = rest.makeIterator()
            }

            @inlinable
            mutating func next() -> Callback<Value>? {
                if let callback = first {
                    first = nil
                    return callback
                }
                while let attachment = rest.next() {
                    if case .callback(let callback) = attachment { return callback }
                }
                return nil
            }
        }
    }

    @usableFromInline
    enum CompleteAction {
        /// The future was already completed: nothing happens, the caller lost.
        case alreadyCompleted
        /// Run the callbacks with the outcome.
        case runCallbacks(Callbacks)
    }

    /// Completes with `outcome`. A bound future accepts only the completion that comes
    /// from the future it follows (`fromBinding`).
    @inlinable
    mutating func complete(_ outcome: Outcome<Value>, fromBinding: Bool = false) -> CompleteAction {
        switch takePhase() {
        case .pending(let pending) where fromBinding || !pending.flags.contains(.bound):
            phase = .completed(StoredOutcome(outcome))
            return .runCallbacks(Callbacks(first: pending.first, attachments: attachments.take()))
        case let other:
            phase = other
            return .alreadyCompleted
        }
    }

    /// The promise will take its outcome from another future. `false` if it is already
    /// completed or bound.
    @inlinable
    mutating func bind() -> Bool {
        guard !isCompleted, !flags.contains(.bound) else { return false }
        return insert(.bound)
    }

    @usableFromInline
    enum BindAction {
        /// Already completed or bound: nothing changed.
        case refused
        /// Bound; `forwardRequest` if a cancel request already arrived here, which must
        /// now go on to the followed future. `mayCloseCycle` unless nothing depends on
        /// this future yet (no interest, callback or cancel action: a fresh promise), in
        /// which case the new edge cannot close a cycle and nobody needs to look.
        case bound(forwardRequest: Bool, mayCloseCycle: Bool)
    }

    /// The promise will take its outcome from `source`, and forward cancel requests to
    /// it; the caller holds an interest in `source` for this future.
    @inlinable
    mutating func bind(following source: AnyFutureBox) -> BindAction {
        guard bind() else { return .refused }
        let hasDependents: Bool
        if case .pending(let pending) = phase {
            hasDependents = interests > 0 || pending.first != nil || attachments != nil
        } else {
            hasDependents = false
        }
        if attachments == nil {
            attachments = .follows(source)
        } else {
            attach(.follows(source))
        }
        return .bound(forwardRequest: flags.contains(.cancelRequested), mayCloseCycle: hasDependents)
    }

    /// The future whose completion this pending one waits for: the one it follows if it
    /// is bound, else the one it is derived from, if any. `nil` once completed.
    @inlinable
    var dependency: AnyFutureBox? {
        guard !isCompleted else { return nil }
        let bound = flags.contains(.bound)
        switch attachments {
        case nil: return nil
        case .forward(let upstream)?: return bound ? nil : upstream
        case .follows(let source)?: return bound ? source : nil
        case .list(let list)?:
            for attachment in list {
                switch attachment {
                case .follows(let source) where bound: return source
                case .cancel(.forward(let upstream)) where !bound: return upstream
                default: continue
                }
            }
            return nil
        }
    }

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
        switch takePhase() {
        case .pending(var pending):
            if pending.first == nil {
                pending.first = makeCallback()
            } else {
                attach(.callback(makeCallback()))
            }
            phase = .pending(pending)
            return .stored
        case .completed(let stored):
            phase = .completed(stored)
            return .runNow(stored.outcome)
        case .modifying:
            preconditionFailure("FutureState observed while being modified")
        }
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

    // MARK: Cancellation

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

    /// A consumer with no interest of its own asks for cancellation (`cancel()`).
    @inlinable @inline(__always)
    mutating func cancelRequested() -> CancelActions? {
        guard insert(.cancelWanted) else { return nil }
        return takeActionsIfRequestIsDue()
    }

    /// Delivers the request if it is due, taking the actions that must run (the
    /// callbacks stay).
    @inlinable @inline(__always)
    mutating func takeActionsIfRequestIsDue() -> CancelActions? {
        let flags = flags
        guard flags.contains(.cancelWanted), interests == 0, !flags.contains(.cancelRequested) else { return nil }
        _ = insert(.cancelRequested)
        // The forwarding edges stay (see ``Attachments``); cancel handlers are released.
        switch attachments {
        case nil:
            return CancelActions.none
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
        if flags.contains(.cancelRequested) { return .refused }
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
        if flags.contains(.cancelRequested) { return .runNow }
        if attachments == nil, case .forward(let upstream) = action {
            attachments = .forward(upstream)
        } else {
            attach(.cancel(action))
        }
        return .stored
    }

    /// Whether a cancel request was delivered to this (pending) future's producer.
    @inlinable
    var isCancelRequested: Bool {
        flags.contains(.cancelRequested)
    }
}
