import FutureBridge

/// Operators that transform or filter each value (see ``Signal`` for where their
/// closures run: inline, on the delivering thread, one value at a time).
extension Signal {
    /// The values transformed by `transform`.
    ///
    /// - Parameter transform: Runs once per value, inline (see above).
    /// - Returns: A signal of the transformed values.
    @inlinable
    public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> Signal<NewValue> {
        liftValues { input in { value in input.send(transform(value)) } }
    }

    /// The values that `isIncluded` accepts.
    ///
    /// - Parameter isIncluded: Runs once per value, inline.
    /// - Returns: A signal of the accepted values.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        liftValues { input in { value in if isIncluded(value) { input.send(value) } } }
    }

    /// The non-nil results of `transform`.
    ///
    /// - Parameter transform: Runs once per value, inline.
    /// - Returns: A signal of the non-nil results.
    @inlinable
    public func compactMap<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue?) -> Signal<NewValue> {
        liftValues { input in { value in if let result = transform(value) { input.send(result) } } }
    }

    /// Each value combined with the previous result, starting from `initial`: the running
    /// accumulation.
    ///
    /// - Parameters:
    ///   - initial: The accumulation before the first value (not sent).
    ///   - combine: Runs once per value, inline.
    /// - Returns: A signal of the accumulated results.
    @inlinable
    public func scan<Result: Sendable>(
        _ initial: Result, _ combine: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result> {
        liftValues { input in
            let accumulated = SerialState(initial)
            return { value in
                accumulated.value = combine(accumulated.value, value)
                input.send(accumulated.value)
            }
        }
    }
}
