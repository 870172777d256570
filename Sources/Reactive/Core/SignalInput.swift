import FutureBridge

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
        let mustDeliver = lock.withLock { state -> Bool in
            var mustDeliver = false
            for event in decide(&state) where storage.enqueue(event) { mustDeliver = true }
            return mustDeliver
        }
        if mustDeliver { storage.deliverQueuedNested() }
    }
}
