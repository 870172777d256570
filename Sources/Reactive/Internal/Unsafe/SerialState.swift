/// State owned by one observer's handler (an operator's count, accumulation or flag), or
/// by a signal's drainer, read and written without a lock.
///
/// ## Invariant
///
/// Only one observer's handler touches `value`, and a handler never runs concurrently
/// with itself: an inline handler is called only by the drainer of the signal it
/// observes, a handler on another executor only by the one job that drains its
/// ``Mailbox``. Successive runs, on whatever threads, are ordered by the acquire-release
/// operations of that signal's or mailbox's ``DeliveryTurn``, which give the
/// happens-before between them.
// @unchecked Sendable: see the invariant above.
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
