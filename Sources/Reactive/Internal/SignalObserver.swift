import FutureBridge

/// One attached handler, with the executor it runs on.
///
/// Inline handlers are called directly by the signal's (already serialized) delivery.
/// Handlers on another executor get a mailbox: events are queued in order and one job
/// at a time drains them on the executor, so the handler sees them in order and never
/// concurrently, even on a concurrent queue.
@usableFromInline
final class SignalObserver<Value: Sendable>: Sendable {
    @usableFromInline let context: ExecutionContext
    @usableFromInline let handler: @Sendable (Signal<Value>.Event) -> Void
    @usableFromInline let mailbox: SerialDrain<Signal<Value>.Event>?
    @usableFromInline let detached = OnceFlag()

    init(context: ExecutionContext, handler: @escaping @Sendable (Signal<Value>.Event) -> Void) {
        self.context = context
        self.handler = handler
        self.mailbox = context.isInline ? nil : SerialDrain()
    }

    @inlinable
    func receive(_ event: Signal<Value>.Event) {
        guard let mailbox else {
            if !detached.isClaimed { handler(event) }
            return
        }
        guard mailbox.enqueue(event) else { return }
        context.execute { [self] in
            mailbox.drainQueued { next in
                if !detached.isClaimed { handler(next) }
            }
        }
    }

    /// No event is handed to the handler after this returns (one being handled now
    /// finishes).
    func detach() {
        _ = detached.claim()
    }
}
