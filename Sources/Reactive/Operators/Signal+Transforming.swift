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

/// Operators that compare each value with the one before it.
extension Signal {
    /// The values that differ from the value just before them: a run of equal values goes
    /// out once, as its first.
    ///
    /// ```swift
    /// let (text, input) = Signal<String>.pipe()
    /// let changes = text.removeDuplicates()
    /// ```
    ///
    /// The same as ``removeDuplicates(by:)`` with `==`: the values go out on the thread
    /// delivering this signal's events, the returned signal keeps the last value until it
    /// ends, and detaching its last observer detaches it from this signal.
    ///
    /// - Returns: A signal without consecutive repeats.
    @inlinable
    public func removeDuplicates() -> Signal where Value: Equatable {
        removeDuplicates { $0 == $1 }
    }

    /// The values that `isDuplicate` does not find a repeat of the value just before
    /// them.
    ///
    /// Each value is compared with the one this signal sent just before it, whether or
    /// not that one went out (as Combine's `removeDuplicates(by:)` does): with a predicate
    /// such as "closer than 1", a slow drift is dropped entirely. The first value always
    /// goes out; terminal events pass through.
    ///
    /// `isDuplicate` runs like ``filter(_:)``'s predicate: inline, on the thread
    /// delivering this signal's events, one value at a time, in no actor's isolation (use
    /// ``receive(on:)`` first to move it elsewhere). The returned signal keeps the last
    /// value (one value, no history) until it ends; when it ends or its last observer
    /// detaches, it detaches from this signal (stopping this signal's source if that was
    /// its last observer) and releases that value.
    ///
    /// - Parameter isDuplicate: Whether the second value repeats the first (the one before
    ///   it); runs once per value after the first.
    /// - Returns: A signal without consecutive repeats.
    @inlinable
    public func removeDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        liftValues { input in
            let previous = SerialState<Value?>(nil)
            return { value in
                let last = previous.value
                previous.value = value
                if let last, isDuplicate(last, value) { return }
                input.send(value)
            }
        }
    }
}
