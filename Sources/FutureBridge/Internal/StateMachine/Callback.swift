/// A closure waiting for a whole outcome.
@usableFromInline
typealias OutcomeCallback<Value> = @Sendable (Outcome<Value>) -> Void

/// A promise's answer to a cancel request.
@usableFromInline
typealias CancelHandler = @Sendable () -> Void

/// A handler waiting for a future's outcome, kept as the closure its caller gave, with
/// the part of the outcome it wants.
///
/// Wrapping every handler in one `(Outcome) -> Void` closure would cost an allocation
/// per handler (the wrapper's context); a case per handler shape costs none.
@usableFromInline
enum Callback<Value: Sendable>: Sendable {
    case outcome(OutcomeCallback<Value>)
    case success(@Sendable (Value) -> Void)
    case failure(@Sendable (any Error) -> Void)
    case cancelled(@Sendable () -> Void)
    case always(@Sendable () -> Void)

    /// Runs the handler on this thread with its part of `outcome`, if `outcome` has it.
    @inlinable
    func callAsFunction(_ outcome: Outcome<Value>) {
        run(with: outcome, in: .inline)
    }

    /// Runs the handler in `context` with its part of `outcome` (a direct call for
    /// ``ExecutionContext/inline``); schedules nothing when `outcome` does not have it.
    @inlinable @inline(__always)
    func run(with outcome: Outcome<Value>, in context: ExecutionContext) {
        switch self {
        case .outcome(let body): context.run(body, with: outcome)
        case .success(let body): if case .success(let value) = outcome { context.run(body, with: value) }
        case .failure(let body): if case .failure(let error) = outcome { context.run(body, with: error) }
        case .cancelled(let body): if case .cancelled = outcome { context.execute(body) }
        case .always(let body): context.execute(body)
        }
    }

    /// This handler, made to run in `context` (itself for ``ExecutionContext/inline``).
    @inlinable
    func bound(to context: ExecutionContext) -> Callback {
        if context.isInline { return self }
        return .outcome { outcome in self.run(with: outcome, in: context) }
    }
}

/// What a cancel request runs: a promise's handler, or a derived future's forwarding of
/// the request to the future it is fed by (which needs no closure).
@usableFromInline
enum CancelAction: Sendable {
    /// Withdraw this future's interest in its upstream, voting to cancel.
    case forward(AnyFutureBox)
    case run(CancelHandler)

    @inlinable
    func callAsFunction() {
        switch self {
        case .forward(let upstream): upstream.withdrawInterest(cancelling: true)
        case .run(let handler): handler()
        }
    }
}

/// The cancel actions a delivered request runs, in registration order. Not generic, so
/// that the unspecialized code that forwards a request upstream (through
/// ``AnyFutureBox``) needs no generic metadata for it.
@usableFromInline
enum CancelActions {
    /// No action: the request stops here.
    case nothing
    case forward(AnyFutureBox)
    case list([CancelAction])

    /// Runs the actions on this thread, in order, without nesting a call per link: see
    /// ``Trampoline/runCancelActions(_:)``.
    @inlinable
    func run() {
        if case .nothing = self { return }
        Trampoline.runCancelActions(self)
    }
}

/// What a pending future keeps besides its first callback, in one word: nothing, the
/// forwarding of a derived future, the future a bound one follows (no allocation for
/// either), or a list of further callbacks and cancel actions (allocated only when there
/// are any).
///
/// The forwarding of a derived future and the future a bound one follows are also the
/// edges along which ``FutureStorage/complete(using:)`` looks for a cycle: both stay
/// until the future completes, even once a cancel request went through them.
@usableFromInline
enum Attachments<Value: Sendable> {
    case forward(AnyFutureBox)
    /// The future this one was bound to (``FutureState/follow(_:)``); cancel
    /// requests are forwarded there.
    case follows(AnyFutureBox)
    case list([Attachment<Value>])
}

@usableFromInline
enum Attachment<Value: Sendable> {
    case callback(Callback<Value>)
    case cancel(CancelAction)
    /// As ``Attachments/follows(_:)``.
    case follows(AnyFutureBox)
    /// A task suspended until the outcome comes (``FutureState/awaiterArrived(_:continuation:)``).
    /// Awaiters and waiters are kept here, never in the first callback, so that the
    /// callback type that every handler goes through stays as small as it was.
    case awaiter(Awaiter<Value>)
    /// A thread blocked until the outcome comes (``FutureState/waiterArrived(_:)``).
    case waiter(Waiter)
    /// The place of an awaiter or waiter that left.
    case vacated

    /// The awaiter or waiter here, which must know its place.
    @inlinable
    var registration: Registration? {
        switch self {
        case .awaiter(let awaiter): awaiter
        case .waiter(let waiter): waiter
        default: nil
        }
    }
}
