import FutureBridgeInternals

extension Future {
    /// Requests cancellation as a consumer that holds no interest of its own.
    ///
    /// If no other consumer holds an interest (a ``CancellationToken``, a task awaiting
    /// ``value``, a derived future such as one made by ``map(on:_:)-(ExecutionContext,_)``), the request
    /// travels at once to the producing promise's
    /// ``Promise/onCancellationRequest(isolation:_:)`` handler, on this thread. Otherwise it is held
    /// until the last of them withdraws too. The producer decides what a request does;
    /// the future may still succeed. Does nothing once the future is completed.
    ///
    /// A request travels any distance (a chain of a million pending links, nested
    /// combined futures) without growing the stack. A request made from inside a cancel
    /// handler is delivered right after that handler returns, still before the outermost
    /// request returns.
    ///
    /// A derived future keeps its interest until it completes or is itself cancelled,
    /// even when nothing references it any more: cancel the futures you derive (or the
    /// last one of a chain) rather than their source.
    public func requestCancellation() {
        storage.requestCancellation()
    }

    /// Takes an interest in this future's value and returns the handle that withdraws it
    /// (FutureKit's `getCancelToken`).
    ///
    /// Give one token to each consumer of a shared future. The request reaches the
    /// producer only when every token (and every other interest) has been withdrawn and
    /// at least one of them by ``CancellationToken/cancel()``. A token released without
    /// `cancel()` gives its interest back without asking for cancellation.
    ///
    /// ```swift
    /// func share(_ avatar: Future<Data>) {
    ///     let a = avatar.cancellationToken(), b = avatar.cancellationToken()
    ///     a.cancel()   // nothing happens: b still wants the avatar
    ///     b.cancel()   // now the producer gets the request
    /// }
    /// ```
    ///
    /// - Returns: A token that holds the interest until it is cancelled or released.
    public func cancellationToken() -> CancellationToken {
        storage.addInterest()
        return CancellationToken(storage.box)
    }
}

/// One consumer's interest in a future's value, and the way to withdraw it.
///
/// Made by ``Future/cancellationToken()``. ``cancel()`` withdraws the interest with a
/// request to cancel; releasing the token without calling it withdraws the interest
/// without a request. Either happens at most once. Thread-safe.
public final class CancellationToken: Sendable {
    private let target: AnyFutureBox
    private let withdrawn = OnceFlag()

    init(_ target: AnyFutureBox) {
        self.target = target
    }

    deinit {
        if withdrawn.claim() { target.withdrawInterest(cancelling: false) }
    }

    /// Withdraws this consumer's interest, asking for cancellation. If it was the last
    /// interest, the request runs the producer's cancel handler on this thread. Later
    /// calls do nothing.
    public func cancel() {
        if withdrawn.claim() { target.withdrawInterest(cancelling: true) }
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        withdrawn.isClaimed
    }
}
