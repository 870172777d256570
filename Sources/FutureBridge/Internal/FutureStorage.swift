/// The heap object behind a future: its ``FutureState`` and the mutex guarding it, in
/// one allocation. It has no behaviour of its own; ``FutureStorage`` drives it.
@usableFromInline
final class FutureBox<Value: Sendable>: LockedStorage<FutureState<Value>> {}

/// The shared state of a ``Future`` and its ``Promise``, and every operation on it.
///
/// Every method takes the lock only to run one event of ``FutureState``, then performs
/// the returned action (running callbacks or cancel handlers, releasing closures) after
/// the lock is released.
// @unchecked Sendable: the only stored property is an immutable reference to a
// `FutureBox`, whose only state (the `FutureState` header) is read and written solely
// inside `withLock`, which holds the box's lock for the whole access. Values
// that cross threads through it are `Sendable` (`Value: Sendable`, `@Sendable`
// closures). (`ManagedBuffer` subclasses cannot conform to `Sendable` themselves.)
@usableFromInline
struct FutureStorage<Value: Sendable>: @unchecked Sendable {
    @usableFromInline
    let box: FutureBox<Value>

    @inlinable
    init(box: FutureBox<Value>) {
        self.box = box
    }

    @inlinable
    static func make(_ state: FutureState<Value>) -> FutureStorage {
        FutureStorage(box: .make(state))
    }

    @inlinable
    static func pending() -> FutureStorage { make(.initial) }

    @inlinable
    static func completed(_ outcome: Outcome<Value>) -> FutureStorage {
        make(.completed(outcome.normalized))
    }

    @inlinable @inline(__always)
    func withLock<R>(_ body: (inout FutureState<Value>) throws -> R) rethrows -> R {
        try box.withLock(body)
    }

    // MARK: Completion

    /// Completes the future; `false` if it was already completed.
    @discardableResult
    @inlinable
    func complete(_ outcome: Outcome<Value>, fromBinding: Bool = false) -> Bool {
        let outcome = outcome.normalized
        switch withLock({ $0.complete(outcome, fromBinding: fromBinding) }) {
        case .alreadyCompleted:
            return false
        case .runCallbacks(let callbacks, let released):
            withExtendedLifetime(released) {}
            Trampoline.run(callbacks, with: outcome)
            return true
        }
    }

    /// Registers `callback`, which runs exactly once with the outcome: on completion,
    /// or right away if the future is already completed.
    @inlinable
    func whenComplete(_ callback: @escaping OutcomeCallback<Value>) {
        switch withLock({ $0.addCallback(callback) }) {
        case .stored:
            break
        case .runNow(let outcome):
            Trampoline.run(callback, with: outcome)
        }
    }

    /// Delivers `select(outcome)`, unless it is `nil`, to `body` on `context`, once: when
    /// the future completes, or at once if it is completed. The primitive behind every
    /// public handler.
    ///
    /// `select` is meant to be a non-capturing closure (free to pass around). The stored
    /// callback is created inside the lock and only while the future is pending, so
    /// observing a completed future allocates nothing; an allocation under the lock is
    /// the price, and it is shorter than a second lock round trip.
    @inlinable
    func observe<Selected: Sendable>(
        on context: ExecutionContext,
        select: @escaping @Sendable (Outcome<Value>) -> Selected?,
        _ body: @escaping @Sendable (Selected) -> Void
    ) {
        let action = withLock { state in
            state.addCallback {
                // Inline (the common case) does not capture the context: 16 bytes less
                // per pending handler.
                if context.isInline {
                    return { outcome in
                        if let selected = select(outcome) { body(selected) }
                    }
                }
                return { outcome in
                    if let selected = select(outcome) { context.run(body, with: selected) }
                }
            }
        }
        if case .runNow(let outcome) = action, let selected = select(outcome) {
            Trampoline.run(body, with: selected, in: context)
        }
    }

    @inlinable
    var outcome: Outcome<Value>? {
        withLock { $0.outcome }
    }

    /// Binds this future to `source`: it completes with `source`'s outcome (and no
    /// other), and forwards cancel requests to it. `false` if already completed or bound.
    /// Told to follow itself, it fails with ``FutureCycleError`` instead of waiting forever.
    @discardableResult
    @inlinable
    func complete(using source: FutureStorage<Value>) -> Bool {
        if source.box === box { return complete(.failure(FutureCycleError())) }
        guard withLock({ $0.bind() }) else { return false }
        forwardCancellation(to: source)
        source.whenComplete { self.complete($0, fromBinding: true) }
        return true
    }

    // MARK: Cancellation

    @inlinable
    func addInterest() {
        withLock { $0.interestAdded() }
    }

    @inlinable
    func withdrawInterest(cancelling: Bool) {
        if let handlers = withLock({ $0.interestWithdrawn(cancelling: cancelling) }) {
            for handler in handlers { handler() }
        }
    }

    @inlinable
    func requestCancel() {
        if let handlers = withLock({ $0.cancelRequested() }) {
            for handler in handlers { handler() }
        }
    }

    /// Adds a cancel handler; runs it at once if the request already arrived. Returns
    /// `false` if the future is completed (the handler will never run).
    @discardableResult
    @inlinable
    func addCancelHandler(_ handler: @escaping CancelHandler) -> Bool {
        switch withLock({ $0.addCancelHandler(handler) }) {
        case .stored:
            return true
        case .runNow:
            handler()
            return true
        case .discard:
            return false
        }
    }

    @inlinable
    var isCancelRequested: Bool {
        withLock { $0.isCancelRequested }
    }

    /// Makes cancel requests on this future travel to `upstream`: this future holds an
    /// interest in `upstream` and withdraws it, with a cancel vote, when a request
    /// arrives here. With ``derived(from:on:_:)``, the one mechanism behind every
    /// derived future.
    @inlinable
    func forwardCancellation<Upstream>(to upstream: FutureStorage<Upstream>) {
        upstream.addInterest()
        if !addCancelHandler(Self.forwarding(to: upstream)) {
            upstream.withdrawInterest(cancelling: false)
        }
    }

    /// The cancel handler of a future fed by `upstream`: withdraw its interest there,
    /// voting to cancel.
    @inlinable
    static func forwarding<Upstream>(to upstream: FutureStorage<Upstream>) -> CancelHandler {
        { upstream.withdrawInterest(cancelling: true) }
    }
}
