import FutureBridge
import FutureBridgeAtomics
import FutureBridgeInternals

/// Whose turn it is to deliver: the count of events accepted and not yet delivered.
///
/// ## Invariant
///
/// - The caller that moves the count away from 0 (``claimIfIdle()``, or ``join()``
///   returning `true`) is *the drainer*. It alone delivers, until ``finishOne()`` returns
///   `false` (a source's task holding the turn, below, gives it back only after its
///   terminal event); so at most one thread delivers at a time, and everything the drainer
///   touches without a lock (``DeliveryList``, an operator's ``SerialState``) is touched
///   by one thread at a time.
/// - Every counted event other than the drainer's own is already in the queue that goes
///   with this turn (the signal's ``SignalStateMachine`` pending events, a mailbox's
///   queue) when it is counted: a caller appends first, then ``join()``s. So a drainer
///   that sees the count above zero always finds the next event there.
/// - The count is changed with acquire-release operations: everything one drainer did
///   happens before what the next drainer does (they are ordered through this word).
///
/// - A source that sends from one task (`Signal(sequence)`) may hold the turn for its
///   whole iteration, across its awaits (``SignalStorage/holdTurnForSource()``): the
///   drainer is then that task, whichever thread runs it; before each of its own events
///   it delivers those others queued (``othersPending``), keeping its own count of 1, and
///   it gives the turn back with ``finishOne()`` after its terminal event. The only
///   events others send such a signal are terminal, and they stop its source at once
///   (``SignalStateMachine/terminalQueued(_:)``), so that a task waiting for its sequence
///   is woken (cancelled) rather than left holding an event.
///
/// An uncontended event is one compare-exchange (``claimIfIdle()``) and one subtraction
/// (``finishOne()``), and never touches the queue or a lock; an event of a source that
/// holds the turn is one load (``othersPending``).
@usableFromInline
final class DeliveryTurn: Sendable {
    /// The first stored property, only ever reached atomically through ``address``.
    @usableFromInline
    nonisolated(unsafe) var pending = 0

    @inlinable
    init() {}

    @inlinable @inline(__always)
    var address: UnsafeMutablePointer<Int> { firstStoredProperty(of: self) }

    /// Becomes the drainer if nothing is pending (one compare-exchange): the caller then
    /// delivers its event directly, without queueing it, and calls ``finishOne()``.
    @inlinable @inline(__always)
    func claimIfIdle() -> Bool {
        fb_int_compare_exchange_acq_rel(address, 0, 1)
    }

    /// Counts an event the caller has just queued; `true` if the caller became the
    /// drainer and must now deliver queued events until ``finishOne()`` returns `false`.
    @inlinable @inline(__always)
    func join() -> Bool {
        fb_int_fetch_add_acq_rel(address, 1) == 0
    }

    /// The count: events accepted and not yet delivered (for tests).
    var count: Int {
        fb_int_load_acquire(address)
    }

    /// For a drainer that keeps the turn (a source's task): whether others queued events,
    /// that is, whether the count is above its own 1.
    @inlinable @inline(__always)
    var othersPending: Bool {
        fb_int_load_acquire(address) > 1
    }

    /// A drainer that keeps the turn delivered one event others queued; `true` if more
    /// are queued.
    @inlinable @inline(__always)
    func finishQueuedKeepingTurn() -> Bool {
        fb_int_fetch_add_acq_rel(address, -1) > 2
    }

    /// The drainer delivered one event; `true` if more are pending (queued) and it must
    /// go on.
    @inlinable @inline(__always)
    func finishOne() -> Bool {
        fb_int_fetch_add_acq_rel(address, -1) > 1
    }
}
