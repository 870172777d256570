import FutureBridge
import FutureBridgeInternals

/// One attached handler, with the executor it runs on.
///
/// Inline handlers are called directly by the signal's (already serialized) delivery.
/// Handlers on another executor get a ``Mailbox``: events are queued in order and one job
/// at a time hands them to the handler on the executor.
@usableFromInline
final class SignalObserver<Value: Sendable>: Sendable {
    @usableFromInline let context: ExecutionContext
    @usableFromInline let handler: @Sendable (Signal<Value>.Event) -> Void
    @usableFromInline let mailbox: Mailbox<Signal<Value>.Event>?
    @usableFromInline let detached = OnceFlag()

    init(context: ExecutionContext, handler: @escaping @Sendable (Signal<Value>.Event) -> Void) {
        self.context = context
        self.handler = handler
        self.mailbox = context.isInline ? nil : Mailbox()
    }

    /// Hands `event` to the handler: at once for an inline handler (inlined into the
    /// signal's delivery loop, so a value costs no call here), through the mailbox
    /// otherwise.
    @inlinable @inline(__always)
    func receive(_ event: Signal<Value>.Event) {
        guard let mailbox else {
            if !detached.isClaimed { handler(event) }
            return
        }
        post(event, to: mailbox)
    }

    /// Posts `event` for a handler on another executor; the poster that found the mailbox
    /// empty schedules the job that drains it.
    @usableFromInline
    func post(_ event: Signal<Value>.Event, to mailbox: Mailbox<Signal<Value>.Event>) {
        guard mailbox.post(event) else { return }
        context.execute { [self] in
            mailbox.drain { next in
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
