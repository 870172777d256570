import FutureBridge

/// Operators that pass a leading or trailing part of the values.
extension Signal {
    /// The first `count` values, then completed (this signal is then detached).
    ///
    /// - Parameter count: How many values to pass; 0 completes at once.
    /// - Returns: A signal of at most `count` values.
    public func take(first count: Int) -> Signal {
        guard count > 0 else {
            return Signal { input in
                input.sendCompleted()
                return {}
            }
        }
        return liftValues { input in
            let taken = SerialState(0)
            return { value in
                taken.value += 1
                input.send(value)
                if taken.value == count { input.sendCompleted() }
            }
        }
    }

    /// The values while `predicate` accepts them; the first value it rejects completes
    /// the signal (and is not sent).
    ///
    /// - Parameter predicate: Runs once per value until it rejects one, inline.
    /// - Returns: A signal of the leading accepted values.
    @inlinable
    public func take(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        liftValues { input in { value in if predicate(value) { input.send(value) } else { input.sendCompleted() } } }
    }

    /// The values after the first `count`.
    ///
    /// - Parameter count: How many values to drop.
    /// - Returns: A signal without its first `count` values.
    @inlinable
    public func skip(first count: Int) -> Signal {
        liftValues { input in
            let skipped = SerialState(0)
            return { value in
                if skipped.value < count { skipped.value += 1 } else { input.send(value) }
            }
        }
    }
}
