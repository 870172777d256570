// Completion and following: the transitions that end the pending phase.

extension FutureState {

    /// The callbacks to run once, and whatever else the pending future held, to be
    /// released after the lock (cancel handlers may hold the last reference to user
    /// objects).
    @usableFromInline
    struct Callbacks: Sequence {
        /// `var` only so that ``run(with:)`` can move it out (`take()`) instead of copying it.
        @usableFromInline var first: Callback<Value>?
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
        /// registration order (the first callback first). Consuming: the handlers are
        /// called as they are, not copied first (a retain and a release each).
        @inlinable @inline(__always)
        consuming func run(with outcome: Outcome<Value>) {
            if let first = first.take() { first(outcome) }
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
    /// from the future it follows (`fromFollowed`).
    @inlinable @inline(__always)
    mutating func complete(_ outcome: Outcome<Value>, fromFollowed: Bool = false) -> CompleteAction {
        switch takePhase() {
        case .pending(let pending) where fromFollowed || !pending.flags.contains(.following):
            restorePhase(.completed(StoredOutcome(outcome)))
            return .runCallbacks(Callbacks(first: pending.first, attachments: attachments.take()))
        case let other:
            restorePhase(other)
            return .alreadyCompleted
        }
    }

    @usableFromInline
    enum AbandonAction {
        /// Completed or bound already: the promise was not the one to complete it.
        case alreadyCompleted
        /// Completed as cancelled: the request had reached the producer and nothing
        /// waits any more, so the producer going away honoured it. Not misuse.
        case cancelledQuietly(Callbacks)
        /// Failed with the error given: misuse, to report.
        case failed(Callbacks)
    }

    /// The promise was released while this future was pending. After its cancel request
    /// was delivered, with nothing waiting any more (``isAwaited``), the future completes
    /// as cancelled; otherwise it fails with `error`.
    mutating func promiseReleased(failingWith error: any Error) -> AbandonAction {
        let quiet = isCancellationRequested && !isAwaited
        switch complete(quiet ? .cancelled : .failure(error)) {
        case .alreadyCompleted: return .alreadyCompleted
        case .runCallbacks(let callbacks): return quiet ? .cancelledQuietly(callbacks) : .failed(callbacks)
        }
    }

    /// Whether anything waits for the outcome: an interest, a handler (a derived or bound
    /// future's too), an awaiting task or a blocked thread.
    var isAwaited: Bool {
        interests > 0 || registeredCallbackCount > 0
    }

    /// Completes with `outcome` if nothing waits for it (pending, not bound, no callback
    /// and no attachment): the completion then has nothing to run, and is a store.
    /// `false` (and nothing changes) otherwise.
    @inlinable @inline(__always)
    mutating func completeIfNothingWaits(with outcome: Outcome<Value>) -> Bool {
        guard attachments == nil, case .pending(let pending) = phase, pending.first == nil,
            !pending.flags.contains(.following)
        else { return false }
        replacePhaseHoldingNothing(with: .completed(StoredOutcome(outcome)))
        return true
    }

    /// The promise will take its outcome from another future. `false` if it is already
    /// completed or bound.
    @inlinable
    mutating func claimForFollowing() -> Bool {
        guard !isCompleted, !flags.contains(.following) else { return false }
        return insert(.following)
    }

    @usableFromInline
    enum FollowAction {
        /// Already completed or bound: nothing changed.
        case refused
        /// Bound; `forwardRequest` if a cancel request already arrived here, which must
        /// now go on to the followed future. `mayCloseCycle` unless nothing depends on
        /// this future yet (no interest, callback or cancel action: a fresh promise), in
        /// which case the new edge cannot close a cycle and nobody needs to look.
        case following(forwardRequest: Bool, mayCloseCycle: Bool)
    }

    /// The promise will take its outcome from `source`, and forward cancel requests to
    /// it; the caller holds an interest in `source` for this future.
    @inlinable
    mutating func follow(_ source: AnyFutureBox) -> FollowAction {
        guard claimForFollowing() else { return .refused }
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
        return .following(forwardRequest: flags.contains(.cancellationRequested), mayCloseCycle: hasDependents)
    }

    /// The future whose completion this pending one waits for: the one it follows if it
    /// is bound, else the one it is derived from, if any. `nil` once completed.
    @inlinable
    var dependency: AnyFutureBox? {
        guard !isCompleted else { return nil }
        let bound = flags.contains(.following)
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
}
