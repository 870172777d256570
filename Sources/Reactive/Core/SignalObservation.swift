import FutureBridge
import FutureBridgeInternals

/// An observer attached with ``Signal/observe(on:_:)-(ExecutionContext,_)``: its handle detaches it.
///
/// Detaching is immediate for events not yet handed to the observer; when the last
/// observer of a signal detaches, the signal is interrupted and its source is told to
/// stop. Releasing the handle does not detach. Thread-safe; detaching twice does
/// nothing.
public final class SignalObservation: Sendable {
    /// What detaches, until ``detach()`` takes it out: it holds the observer and so its
    /// handler, which a handle kept after detaching must not keep.
    private let action: Locked<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    /// Detaches the observer. When it returns, the handler and what it captures are let
    /// go, unless an event is being handed to it on another thread (then they go once
    /// that delivery ends). Amortized O(log n) in the number of the signal's observers:
    /// detaching all of them, in any order, costs O(n log n) at most.
    ///
    /// While other observers remain, detaching takes the signal's delivery turn as a send
    /// does, when no delivery is in progress: events another thread queued meanwhile then
    /// go out to the remaining observers on this thread before `detach()` returns (their
    /// `.inline` handlers run here). Do not detach while holding a lock that such a
    /// handler takes.
    public func detach() {
        let detach = action.withLock { $0.take() }
        detach?()
    }

    /// Whether ``detach()`` has been called.
    public var isDetached: Bool {
        action.withLock { $0 == nil }
    }
}
