import FutureBridgeInternals

/// A future's heap object seen without its value type: its lock, and what a cancel
/// request from a future fed by it, or a combined future, needs (interest counting).
///
/// Only ``FutureBox`` is ever created; this class exists so that a derived future can
/// keep its upstream in one word, whatever the upstream's value type, and forward cancel
/// requests there without a closure.
// @unchecked Sendable: it has no state of its own besides the atomic lock word.
@usableFromInline
class AnyFutureBox: LockHolder, @unchecked Sendable {
    /// The lock (and the promise's word, ``LockWord/holderBits``): first, as ``LockHolder``
    /// requires.
    @usableFromInline
    final var word = LockWord()

    @inlinable
    init() {}

    /// A consumer takes an interest in the value (see ``FutureState``).
    @usableFromInline
    func addInterest() {
        preconditionFailure("AnyFutureBox is never created on its own; FutureBox overrides this")
    }

    /// A consumer gives its interest back, voting to cancel when `cancelling`.
    @usableFromInline
    func withdrawInterest(cancelling: Bool) {
        preconditionFailure("AnyFutureBox is never created on its own; FutureBox overrides this")
    }

    /// The future whose completion this pending one waits for (``FutureState/dependency``).
    @usableFromInline
    func dependency() -> AnyFutureBox? {
        preconditionFailure("AnyFutureBox is never created on its own; FutureBox overrides this")
    }
}

/// The heap object behind a future: its ``FutureState`` and the lock guarding it, in
/// one allocation (64 bytes for small values). It has no behaviour of its own besides
/// the interest counting its base class declares; ``FutureStorage`` drives it.
// @unchecked Sendable: `state` is read and written only between `lock()` and `unlock()`
// (``FutureStorage/withLock(_:)``, or by hand in ``FutureStorage/observe(on:_:)``,
// ``FutureStorage/succeed(_:)`` and ``FutureStorage/completeHoldingLock(normalized:fromFollowed:)``,
// which releases the lock its caller took). Values that cross threads through it are
// `Sendable`.
@usableFromInline
final class FutureBox<Value: Sendable>: AnyFutureBox, @unchecked Sendable {
    // Reached only under the lock, so dynamic exclusivity checks would buy nothing.
    @usableFromInline @exclusivity(unchecked)
    var state: FutureState<Value>

    @inlinable
    init(_ state: FutureState<Value>) {
        self.state = state
    }

    @inlinable
    override func addInterest() {
        FutureStorage(box: self).addInterest()
    }

    @inlinable
    override func withdrawInterest(cancelling: Bool) {
        FutureStorage(box: self).withdrawInterest(cancelling: cancelling)
    }

    @usableFromInline
    override func dependency() -> AnyFutureBox? {
        FutureStorage(box: self).withLock { $0.dependency }
    }
}

/// The shared state of a ``Future`` and its ``Promise``, and every operation on it.
///
/// Every method takes the lock only to run one event of ``FutureState``, then performs
/// the returned action (running callbacks or cancel actions, releasing closures) after
/// the lock is released.
@usableFromInline
struct FutureStorage<Value: Sendable>: Sendable {
    @usableFromInline
    let box: FutureBox<Value>

    @inlinable
    init(box: FutureBox<Value>) {
        self.box = box
    }

    @inlinable
    static func make(_ state: FutureState<Value>) -> FutureStorage {
        FutureStorage(box: FutureBox(state))
    }

    @inlinable
    static func pending() -> FutureStorage { make(.initial) }

    @inlinable
    static func completed(_ outcome: Outcome<Value>) -> FutureStorage {
        make(FutureState(.completed(StoredOutcome(outcome.normalized))))
    }

    @inlinable @inline(__always)
    func withLock<R>(_ body: (inout FutureState<Value>) throws -> R) rethrows -> R {
        box.lock()
        defer { box.unlock() }
        return try body(&box.state)
    }

    // MARK: Completion

    /// Completes the future; `false` if it was already completed.
    @discardableResult
    @inlinable
    func complete(_ outcome: Outcome<Value>, fromFollowed: Bool = false) -> Bool {
        complete(normalized: outcome.normalized, fromFollowed: fromFollowed)
    }

    /// Completes the future with a success; `false` if it was already completed. The
    /// same as `complete(.success(value))`, with the outcome's case known to the
    /// optimizer, which then leaves out the checks for an error to retain and release.
    ///
    /// When nothing waits for the future yet (a promise completed before anybody
    /// observes it), this is a lock, a check, a store and an unlock; otherwise
    /// ``succeedHoldingLock(_:)`` does the rest. Never inlined: apart, the short path
    /// saves no registers (the long one is a call of its own), and callers stay small
    /// (inlined, it made the optimizer keep a caller's promise on the stack).
    @discardableResult
    @inlinable @inline(never)
    func succeed(_ value: Value) -> Bool {
        box.lock()
        if box.state.completeIfNothingWaits(with: .success(value)) {
            box.unlock()
            return true
        }
        return succeedHoldingLock(value)
    }

    /// ``succeed(_:)`` once something may wait: called with the lock held; releases it.
    @inlinable @inline(never)
    func succeedHoldingLock(_ value: Value) -> Bool {
        completeHoldingLock(normalized: .success(value), fromFollowed: false)
    }

    /// ``complete(_:fromFollowed:)`` for an outcome already normalized.
    @inlinable @inline(__always)
    func complete(normalized outcome: Outcome<Value>, fromFollowed: Bool) -> Bool {
        box.lock()
        return completeHoldingLock(normalized: outcome, fromFollowed: fromFollowed)
    }

    /// ``complete(normalized:fromFollowed:)`` with the lock already held by the caller;
    /// releases it, then runs the callbacks.
    @inlinable @inline(__always)
    func completeHoldingLock(normalized outcome: Outcome<Value>, fromFollowed: Bool) -> Bool {
        let action = box.state.complete(outcome, fromFollowed: fromFollowed)
        box.unlock()
        switch consume action {
        case .alreadyCompleted:
            return false
        case .runCallbacks(let callbacks):
            Trampoline.run(callbacks, with: outcome)
            return true
        }
    }

    /// Registers `callback`, which runs exactly once with the outcome: on completion,
    /// or right away if the future is already completed.
    @inlinable
    func whenComplete(_ callback: @escaping OutcomeCallback<Value>) {
        observe(on: .inline, .outcome(callback))
    }

    /// Delivers the outcome to `callback` on `context`, once: when the future completes,
    /// or at once if it is completed. The primitive behind every public handler.
    ///
    /// An inline callback is stored as it is (for a closure that captures nothing, a
    /// handler costs no allocation); another context's is wrapped in a closure that
    /// dispatches the handler when its part of the outcome is there. The wrapper is made
    /// inside the lock and only while the future is pending: observing a completed future
    /// allocates nothing.
    ///
    /// Consuming, and locked by hand rather than through ``withLock(_:)`` (a closure
    /// cannot consume what it captures): an inline callback is moved into the state, not
    /// copied there and released here (a retain and a release each).
    @inlinable
    func observe(on context: ExecutionContext, _ callback: consuming Callback<Value>) {
        guard context.isInline else { return observeBound(on: context, callback) }
        box.lock()
        let action = box.state.addCallback(moving: callback)
        box.unlock()
        if case .runNow(let outcome, let callback) = consume action {
            Trampoline.run(callback, with: outcome, in: .inline)
        }
    }

    /// ``observe(on:_:)`` for a context other than inline.
    @inlinable
    func observeBound(on context: ExecutionContext, _ callback: Callback<Value>) {
        let action = withLock { state in
            state.addCallback { callback.bound(to: context) }
        }
        if case .runNow(let outcome) = action {
            Trampoline.run(callback, with: outcome, in: context)
        }
    }

    @inlinable
    var outcome: Outcome<Value>? {
        withLock { $0.outcome }
    }

    /// Binds this future to `source`: it completes with `source`'s outcome (and no
    /// other), and forwards cancel requests to it. `false` if already completed or bound.
    ///
    /// A future that would then wait for itself, directly or around a cycle of bound
    /// (and derived) futures of any length, fails with ``FutureCycleError`` instead of
    /// waiting forever, and so does every future in the cycle: the link that closes it
    /// finds the cycle. Two links closing one cycle on two threads at once: each takes its
    /// interest in its source, then sets its edge and looks whether anything depends on
    /// its own future, under that future's lock, and only then walks; so at least one of
    /// them sees the other's interest and walks the whole cycle.
    ///
    /// The walk is as long as the chain it follows, and only a future that something
    /// already depends on walks at all: a fresh promise bound to the end of a chain (a
    /// chain built link by link) costs one lock, not the chain's length.
    @discardableResult
    @inlinable
    func complete(using source: FutureStorage<Value>) -> Bool {
        if source.box === box { return complete(.failure(FutureCycleError())) }
        source.addInterest()  // before the edge: a request may travel it at once
        let mustLook: Bool
        switch withLock({ $0.follow(source.box) }) {
        case .refused:
            source.withdrawInterest(cancelling: false)
            return false
        case .following(let forwardRequest, let mayCloseCycle):
            if forwardRequest { source.withdrawInterest(cancelling: true) }
            mustLook = mayCloseCycle
        }
        let callback: OutcomeCallback<Value> = { self.complete($0, fromFollowed: true) }
        let (action, next) = source.withLock { state in
            (state.addCallback(.outcome(callback)), mustLook ? state.dependency : nil)
        }
        if case .runNow(let outcome) = action {
            Trampoline.run(.outcome(callback), with: outcome, in: .inline)
        } else if let next, let length = Self.cycleLength(from: next, backTo: box) {
            // Completing this future completes the one that follows it, and so on around.
            complete(.failure(FutureCycleError(length: length)), fromFollowed: true)
        }
        return true
    }

    /// The number of futures in the cycle `start` ... `target` -> source -> `start`, if
    /// following dependencies from `start` reaches `target`; `nil` if the chain ends (a
    /// future that completes by itself) or loops without `target` (a cycle that another
    /// thread is closing, and will find). Brent's loop detection: no allocation.
    @usableFromInline
    static func cycleLength(from start: AnyFutureBox, backTo target: AnyFutureBox) -> Int? {
        var current = start
        var length = 3  // `target`, its source and `start`
        var tortoise = start
        var stepsSinceTortoise = 0
        var power = 1
        while current !== target {
            guard let next = current.dependency() else { return nil }
            current = next
            length += 1
            stepsSinceTortoise += 1
            if current === tortoise { return nil }
            if stepsSinceTortoise == power {
                tortoise = current
                power *= 2
                stepsSinceTortoise = 0
            }
        }
        return length - 1  // `target` was counted twice, at both ends
    }

    // MARK: Cancellation

    @inlinable
    func addInterest() {
        withLock { $0.interestAdded() }
    }

    @inlinable
    func withdrawInterest(cancelling: Bool) {
        withLock { $0.interestWithdrawn(cancelling: cancelling) }?.run()
    }

    @inlinable
    func requestCancellation() {
        withLock { $0.cancellationRequested() }?.run()
    }

    /// Adds a cancel handler; runs it at once if the request already arrived. Returns
    /// `false` if the future is completed (the handler will never run).
    @discardableResult
    @inlinable
    func addCancelHandler(_ handler: @escaping CancelHandler) -> Bool {
        addCancelAction(.run(handler))
    }

    /// Adds a cancel action; runs it at once if the request already arrived. Returns
    /// `false` if the future is completed (the action will never run).
    @inlinable
    func addCancelAction(_ action: CancelAction) -> Bool {
        switch withLock({ $0.addCancelAction(action) }) {
        case .stored:
            return true
        case .runNow:
            action()
            return true
        case .discard:
            return false
        }
    }

    @inlinable
    var isCancellationRequested: Bool {
        withLock { $0.isCancellationRequested }
    }

    /// Makes cancel requests on this future travel to `upstream`: this future holds an
    /// interest in `upstream` and withdraws it, with a cancel vote, when a request
    /// arrives here. With ``derived(from:on:_:)``, the one mechanism behind every
    /// derived future.
    @inlinable
    func forwardCancellation<Upstream>(to upstream: FutureStorage<Upstream>) {
        upstream.addInterest()
        if !addCancelAction(.forward(upstream.box)) {
            upstream.withdrawInterest(cancelling: false)
        }
    }
}
