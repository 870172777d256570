import FutureBridge
import FutureBridgeInternals

/// The sending side of a ``Signal``: `Sendable`, usable from any thread.
///
/// Events sent from several threads at once are delivered one at a time, in the order
/// they were accepted. Everything sent after a terminal event is ignored. Releasing the
/// last reference to an input whose signal has not ended interrupts it.
public final class SignalInput<Value: Sendable>: Sendable {
    @usableFromInline
    let storage: SignalStorage<Value>

    init(_ storage: SignalStorage<Value>) {
        self.storage = storage
    }

    deinit {
        storage.send(.interrupted)
    }

    /// Sends a value.
    @inlinable
    public func send(_ value: Value) {
        storage.send(.value(value))
    }

    /// Sends any event; a terminal one ends the signal.
    @inlinable
    public func send(_ event: Signal<Value>.Event) {
        storage.send(event)
    }

    /// Ends the signal normally.
    public func sendCompleted() {
        storage.send(.completed)
    }

    /// Ends the signal with `error`.
    public func sendFailed(_ error: any Error) {
        storage.send(.failed(error))
    }

    /// Ends the signal as interrupted (cancelled).
    public func sendInterrupted() {
        storage.send(.interrupted)
    }

    /// Sends the events `decide` returns, fixing their place in the order inside `lock`
    /// (so that events decided under one lock are delivered in that order), and
    /// delivering them after `lock` is released.
    func send<State>(
        lockedBy lock: Locked<State>, _ decide: (inout State) -> [Signal<Value>.Event]
    ) {
        send(lockedBy: lock) { state, send in
            for event in decide(&state) { send(event) }
        }
    }

    /// Sends the events `decide` hands to `send`, as the form above does but without an
    /// array, so that an operator sending a value per transition allocates nothing for
    /// it; returns what `decide` returns.
    @inlinable
    func send<State, Decision>(
        lockedBy lock: Locked<State>,
        _ decide: (inout State, _ send: (Signal<Value>.Event) -> Void) -> Decision
    ) -> Decision {
        var mustDeliver = false
        let decision = lock.withLock { state in
            decide(&state) { event in if storage.enqueue(event) { mustDeliver = true } }
        }
        if mustDeliver { storage.deliverQueuedNested() }
        return decision
    }
}
