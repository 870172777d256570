import FutureBridge
import FutureBridgeInternals

/// An observer attached with ``Signal/observe(on:_:)-(ExecutionContext,_)``: its handle detaches it.
///
/// Detaching is immediate for events not yet handed to the observer; when the last
/// observer of a signal detaches, the signal is interrupted and its source is told to
/// stop. Releasing the handle does not detach. Thread-safe; detaching twice does
/// nothing.
public final class SignalObservation: Sendable {
    private let detachOnce = OnceFlag()
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// Detaches the observer.
    public func detach() {
        if detachOnce.claim() { action() }
    }

    /// Whether ``detach()`` has been called.
    public var isDetached: Bool {
        detachOnce.isClaimed
    }
}
