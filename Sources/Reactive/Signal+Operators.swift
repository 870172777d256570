import FutureBridge

/// The operators users reach for first. Each returns a new signal that observes this one
/// when its own first observer attaches and detaches when it ends, so an operator
/// nobody observes costs nothing, and detaching the last observer of a chain stops the
/// chain's source. Terminal events pass through unless an operator says otherwise.
/// Closures run like inline handlers: on the thread delivering this signal's events,
/// one event at a time (see ``Signal`` "Threading"); use ``receive(on:)`` first to
/// move them elsewhere.
extension Signal {
    /// A signal fed by this one through the handler `makeHandler` builds for its input.
    @inlinable
    func lift<NewValue>(
        observingOn context: ExecutionContext = .inline,
        _ makeHandler: @escaping @Sendable (SignalInput<NewValue>) -> @Sendable (Event) -> Void
    ) -> Signal<NewValue> {
        Signal<NewValue> { input in
            let observation = self.observe(on: context, makeHandler(input))
            return { observation.detach() }
        }
    }

    /// A signal fed by this one: `onValue` handles each value; terminal events pass on.
    @inlinable
    func liftValues<NewValue>(
        _ makeOnValue: @escaping @Sendable (SignalInput<NewValue>) -> @Sendable (Value) -> Void
    ) -> Signal<NewValue> {
        lift { input in
            let onValue = makeOnValue(input)
            return { event in
                if case .value(let value) = event { onValue(value) } else { input.send(event.retyped()) }
            }
        }
    }

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

    /// The same events, delivered to observers on `context`, one at a time and in order
    /// even on a concurrent queue.
    ///
    /// - Parameter context: Where the events are delivered from now on.
    /// - Returns: A signal whose inline observers run on `context`.
    public func receive(on context: ExecutionContext) -> Signal {
        lift(observingOn: context) { input in { event in input.send(event) } }
    }

    /// The values of all `signals`, as they come. Completes once all have completed;
    /// the first failure or interruption ends it (and detaches from the others).
    ///
    /// - Parameter signals: The signals to merge.
    /// - Returns: A signal of every value.
    public static func merge(_ signals: [Signal]) -> Signal {
        guard !signals.isEmpty else {
            return Signal { input in
                input.sendCompleted()
                return {}
            }
        }
        return Signal { input in
            let remaining = Locked(signals.count)
            let observations = signals.map { signal in
                signal.observe { event in
                    switch event {
                    case .value:
                        input.send(event)
                    case .completed:
                        input.send(lockedBy: remaining) { remaining in
                            remaining -= 1
                            return remaining == 0 ? [.completed] : []
                        }
                    case .failed, .interrupted:
                        input.send(event)
                    }
                }
            }
            return { for observation in observations { observation.detach() } }
        }
    }

    /// The values of this signal and `others`, as they come; see ``merge(_:)``.
    public func merge(with others: Signal...) -> Signal {
        Signal.merge([self] + others)
    }

    /// Pairs of the latest values of `first` and `second`, sent whenever either sends a
    /// value, once both have sent one. Completes once both have completed; the first
    /// failure or interruption ends it.
    ///
    /// - Parameters:
    ///   - first: The first signal.
    ///   - second: The second signal.
    /// - Returns: A signal of pairs of latest values.
    public static func combineLatest<Second: Sendable>(
        _ first: Signal, _ second: Signal<Second>
    ) -> Signal<(Value, Second)> {
        Signal<(Value, Second)> { input in
            let latest = Locked(LatestPair<Value, Second>())
            @Sendable func update(_ change: (inout LatestPair<Value, Second>) -> Void) {
                input.send(lockedBy: latest) { latest in
                    change(&latest)
                    guard let first = latest.first, let second = latest.second else { return [] }
                    return [.value((first, second))]
                }
            }
            @Sendable func end<Ended>(_ event: Signal<Ended>.Event) {
                guard case .completed = event else { return input.send(event.retyped()) }
                input.send(lockedBy: latest) { latest in
                    latest.completed += 1
                    return latest.completed == 2 ? [.completed] : []
                }
            }
            let observations = [
                first.observe { event in
                    if case .value(let value) = event { update { $0.first = value } } else { end(event) }
                },
                second.observe { event in
                    if case .value(let value) = event { update { $0.second = value } } else { end(event) }
                },
            ]
            return { for observation in observations { observation.detach() } }
        }
    }
}

/// The latest values of the two signals of ``Signal/combineLatest(_:_:)``.
struct LatestPair<First: Sendable, Second: Sendable>: Sendable {
    var first: First?
    var second: Second?
    var completed = 0
}

extension Signal.Event {
    /// A terminal event as an event of another value type; must not be a value.
    @inlinable
    func retyped<Other>() -> Signal<Other>.Event {
        switch self {
        case .value: preconditionFailure("retyped() called on a value event")
        case .completed: .completed
        case .failed(let error): .failed(error)
        case .interrupted: .interrupted
        }
    }
}

/// State owned by one observer's handler, or by a signal's drainer.
// @unchecked Sendable: only one observer's handler (or only the drainer of one signal)
// touches `value`, and neither ever runs concurrently with itself; successive runs are
// ordered by the acquire/release operations of the delivering signal's `SerialDrain` (or
// of the observer's mailbox, also a `SerialDrain`), which give the happens-before
// between them.
@usableFromInline
final class SerialState<Value>: @unchecked Sendable {
    // Never accessed concurrently (see above), so dynamic exclusivity checks would buy
    // nothing; they were a measured share of every event.
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
