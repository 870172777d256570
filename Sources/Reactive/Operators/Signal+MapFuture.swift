import FutureBridge

extension Signal {
    /// A signal of the values of the futures `transform` makes, one per value (the
    /// FutureKit talk's `mapFuture`: from values over time to one result each).
    ///
    /// `transform` runs inline: on the thread delivering the value, or, when a value
    /// waits for its turn (``MapFutureStrategy/concat``, a full
    /// ``MapFutureStrategy/merge(maxConcurrent:)``), on the thread that completes the
    /// future before it. A future that ends cancelled is skipped. The signal completes
    /// once this signal has completed and every future has completed; a failure or an
    /// interruption of this signal ends it at once.
    ///
    /// Cancellation: when the returned signal ends (terminal event, or its last observer
    /// detached), every future in flight gets a cancel request and queued values are
    /// dropped at once, even while a future ignores its request and keeps going. The
    /// observation holds an interest in each future in flight (as a
    /// `CancellationToken` does), so its request counts like any other
    /// consumer's: a future that someone else still wants, or that the latest value maps
    /// to as well (``MapFutureStrategy/latest``), is not cancelled.
    ///
    /// <!-- fragment: app -->
    /// ```swift
    /// let results = searchField.text.mapFuture(.latest) { query in search(query) }
    /// ```
    ///
    /// - Parameters:
    ///   - strategy: How the futures run; ``MapFutureStrategy/concat`` by default.
    ///   - onFailure: What a failed future does; ``InnerFailurePolicy/failSignal`` by
    ///     default.
    ///   - transform: Makes the future of one value.
    /// - Returns: A signal of the futures' values.
    public func mapFuture<NewValue: Sendable>(
        _ strategy: MapFutureStrategy = .concat,
        onFailure: InnerFailurePolicy = .failSignal,
        _ transform: @escaping @Sendable (Value) -> Future<NewValue>
    ) -> Signal<NewValue> {
        Signal<NewValue> { input in
            let inFlight = MapFutureStorage<NewValue>(input: input, strategy: strategy, onFailure: onFailure)
            let limiter: FutureLimiter?
            switch strategy {
            case .concat: limiter = FutureLimiter(maxConcurrent: 1)
            case .merge(let maxConcurrent): limiter = FutureLimiter(maxConcurrent: max(1, maxConcurrent))
            case .latest: limiter = nil
            }
            let observation = self.observe { event in
                switch event {
                case .value(let value):
                    if let limiter {
                        inFlight.start(limiter.add { transform(value) })
                    } else {
                        inFlight.replace(with: transform(value))
                    }
                case .completed:
                    inFlight.sourceCompleted()
                case .failed, .interrupted:
                    input.send(event.retyped())
                }
            }
            return {
                observation.detach()
                inFlight.cancelAll()
            }
        }
    }
}
