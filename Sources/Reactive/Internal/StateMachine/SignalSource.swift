/// What produces a signal's events, as its state machine sees it: closures it holds and
/// hands back in actions, never calls.
@usableFromInline
enum SignalSource<Value: Sendable>: Sendable {
    /// Starts a signal's source, which sends through the input, and then hands what
    /// stops it to the second closure (at once, or later when the start hops to the
    /// isolation it was written in).
    @usableFromInline
    typealias Start = @Sendable (SignalInput<Value>, _ started: @escaping @Sendable (@escaping Stop) -> Void) -> Void
    /// What stops a signal's source.
    @usableFromInline
    typealias Stop = @Sendable () -> Void

    /// Not started: starts when the first observer attaches.
    case idle(Start)
    /// Being started by the first observer's thread.
    case starting
    /// Running; `stop` tells it to stop.
    case running(Stop)
    /// Stopped, or never had anything to stop.
    case stopped
}
