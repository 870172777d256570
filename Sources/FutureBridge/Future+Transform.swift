extension Future {
    /// A future of `transform` applied to this future's value.
    ///
    /// `transform` runs once, on `context`, if this future succeeds; a failure or a
    /// cancellation passes through unchanged, and a throw fails the new future (or
    /// cancels it, for a cancellation error). A cancel request on the new future
    /// travels to this one.
    ///
    /// - Parameters:
    ///   - context: Where `transform` runs; ``ExecutionContext/inline`` by default.
    ///   - transform: Turns the value into a new value.
    /// - Returns: The transformed future.
    @inlinable
    public func map<NewValue>(
        on context: ExecutionContext = .inline,
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Future<NewValue> {
        if context.isInline, let outcome = storage.outcome {
            return Future<NewValue>(storage: .completed(outcome.flatMapValue(transform)))
        }
        return Future<NewValue>(
            storage: .derived(from: storage, on: context) { outcome, next in
                next.complete(outcome.flatMapValue(transform))
            })
    }

    /// A future that follows the future `transform` returns for this future's value.
    ///
    /// `transform` runs once, on `context`, if this future succeeds; a failure or a
    /// cancellation passes through. A cancel request on the new future travels to
    /// whichever future is current: this one until `transform` has run, then the one it
    /// returned.
    ///
    /// - Parameters:
    ///   - context: Where `transform` runs; ``ExecutionContext/inline`` by default.
    ///   - transform: Starts the next step.
    /// - Returns: A future of the next step's value.
    @inlinable
    public func flatMap<NewValue>(
        on context: ExecutionContext = .inline,
        _ transform: @escaping @Sendable (Value) throws -> Future<NewValue>
    ) -> Future<NewValue> {
        Future<NewValue>(
            storage: .derived(from: storage, on: context) { outcome, next in
                switch outcome.flatMapValue(transform) {
                case .success(let inner): next.complete(using: inner.storage)
                case .failure(let error): next.complete(.failure(error))
                case .cancelled: next.complete(.cancelled)
                }
            })
    }
}
