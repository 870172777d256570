import FutureBridge
import FutureBridgeAtomics

/// A FIFO that hands its elements to one drainer at a time, in order.
///
/// Whoever finds nothing pending becomes the drainer and delivers until nothing is
/// left; everybody else only enqueues. So elements submitted from many threads are
/// delivered in one order, never concurrently, and never under the lock; an element
/// submitted by the drainer itself (a re-entrant send) is queued behind the current one
/// instead of recursing.
///
/// `pending` counts the elements accepted and not yet delivered, the drainer's own
/// included. An uncontended submission is one compare-exchange (``claimIfIdle()``) and
/// one subtraction (``finishOne()``): its element goes straight to delivery and never
/// touches the queue. Everybody else appends to the queue *before* counting itself, so a
/// drainer that sees the count above zero always finds the element in the queue. The
/// acquire/release orderings on `pending` order one drainer's work before the next one's.
@usableFromInline
final class SerialDrain<Element: Sendable>: Sendable {
    @usableFromInline
    struct Queue: Sendable {
        @usableFromInline var elements: [Element] = []
        @usableFromInline var head = 0

        @inlinable init() {}
    }

    /// The first stored property, only ever reached atomically through ``pendingAddress``.
    @usableFromInline
    nonisolated(unsafe) var pending = 0
    @usableFromInline
    let queue = Locked(Queue())

    @inlinable
    init() {}

    @inlinable @inline(__always)
    var pendingAddress: UnsafeMutablePointer<Int> { firstStoredProperty(of: self) }

    /// Becomes the drainer if nothing is pending (one compare-exchange): the caller then
    /// delivers its element directly, without queueing it, and calls ``finishOne()``.
    @inlinable @inline(__always)
    func claimIfIdle() -> Bool {
        fb_int_compare_exchange_acq_rel(pendingAddress, 0, 1)
    }

    /// Enqueues `element`; `true` if the caller became the drainer and must now deliver
    /// ``popFirst()`` and call ``finishOne()`` until it returns `false`.
    @inlinable
    func enqueue(_ element: Element) -> Bool {
        queue.withLock { $0.elements.append(element) }
        return fb_int_fetch_add_acq_rel(pendingAddress, 1) == 0
    }

    /// The drainer delivered one element; `true` if more are pending (in the queue) and
    /// it must go on.
    @inlinable @inline(__always)
    func finishOne() -> Bool {
        fb_int_fetch_add_acq_rel(pendingAddress, -1) > 1
    }

    /// Delivers queued elements with `deliver` until none is pending; only the drainer
    /// calls it.
    @inlinable
    func drainQueued(_ deliver: (Element) -> Void) {
        repeat {
            deliver(popFirst())
        } while finishOne()
    }

    @inlinable
    func popFirst() -> Element {
        queue.withLock { queue in
            precondition(queue.head < queue.elements.count, "SerialDrain: a pending element is missing")
            let element = queue.elements[queue.head]
            queue.head += 1
            if queue.head == queue.elements.count {
                queue.elements.removeAll(keepingCapacity: queue.elements.count <= 64)
                queue.head = 0
            }
            return element
        }
    }
}
