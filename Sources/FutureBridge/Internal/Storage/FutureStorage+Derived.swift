extension FutureStorage {
    /// Creates a future fed by `upstream`, the one building block of every operator.
    ///
    /// The new future holds an interest in `upstream`; a cancel request on it withdraws
    /// that interest with a cancel vote, so requests travel upstream. `body` runs once,
    /// on `context`, with upstream's outcome and the new future to complete.
    @inlinable
    static func derived<Upstream>(
        from upstream: FutureStorage<Upstream>,
        on context: ExecutionContext,
        _ body: @escaping @Sendable (Outcome<Upstream>, FutureStorage<Value>) -> Void
    ) -> FutureStorage<Value> {
        let next = make(.forwarding(to: upstream.box))
        upstream.whenCompleteHoldingInterest(context.wrapping { outcome in body(outcome, next) })
        return next
    }

    /// Registers `callback` and takes an interest in one step (one lock).
    @inlinable
    func whenCompleteHoldingInterest(_ callback: @escaping OutcomeCallback<Value>) {
        let action = withLock { state in
            state.interestAdded()
            return state.addCallback(.outcome(callback))
        }
        if case .runNow(let outcome) = action {
            Trampoline.run(.outcome(callback), with: outcome, in: .inline)
        }
    }
}

extension Outcome {
    /// The outcome with its success value replaced by `transform`'s result; a throw
    /// becomes a failure (or a cancellation).
    @inlinable @inline(__always)
    func flatMapValue<NewValue>(_ transform: (Value) throws -> NewValue) -> Outcome<NewValue> {
        switch self {
        case .success(let value): Outcome<NewValue>(catching: { try transform(value) })
        case .failure(let error): .failure(error)
        case .cancelled: .cancelled
        }
    }
}
