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
