extension Future {
    /// Runs `body` with the outcome once the future completes, whatever it is.
    ///
    /// `body` runs exactly once, on `context`: when the future completes, or at once if
    /// it already has. A handler does not hold an interest in the value: it neither
    /// prevents nor makes cancel requests.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Receives the outcome.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    @_disfavoredOverload
    public func onComplete(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable (Outcome<Value>) -> Void
    ) -> Future {
        storage.observe(on: resolved(context), .outcome(body))
        return self
    }

    /// Runs `body` with the value if the future succeeds.
    ///
    /// `body` runs at most once, on `context`; it does not run for a failure or a
    /// cancellation.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Receives the value.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    @_disfavoredOverload
    public func onSuccess(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable (Value) -> Void
    ) -> Future {
        storage.observe(on: resolved(context), .success(body))
        return self
    }

    /// Runs `body` with the error if the future fails.
    ///
    /// `body` runs at most once, on `context`. A cancellation is not a failure: use
    /// ``onCancel(on:_:)-(ExecutionContext,_)`` for it.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Receives the error.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    @_disfavoredOverload
    public func onFailure(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Future {
        storage.observe(on: resolved(context), .failure(body))
        return self
    }

    /// Runs `body` if the future ends cancelled.
    ///
    /// `body` runs at most once, on `context`. Registering it does not request
    /// cancellation; see ``requestCancellation()``.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Runs on cancellation.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    @_disfavoredOverload
    public func onCancel(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable () -> Void
    ) -> Future {
        storage.observe(on: resolved(context), .cancelled(body))
        return self
    }

    /// Runs `body` once the future completes, whatever the outcome (clean-up code).
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Runs exactly once.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    @_disfavoredOverload
    public func always(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable () -> Void
    ) -> Future {
        storage.observe(on: resolved(context), .always(body))
        return self
    }
}
