import FutureBridge
import Synchronization

/// A FIFO that hands its elements to one drainer at a time, in order.
///
/// Whoever finds nothing pending becomes the drainer and delivers until nothing is
/// left; everybody else only enqueues. So elements submitted from many threads are
/// delivered in one order, never concurrently, and never under the lock; an element
/// submitted by the drainer itself (a re-entrant send) is queued behind the current one
/// instead of recursing.
///
/// `pending` counts the elements accepted and not yet delivered, the drainer's own
/// included. An uncontended submit is one compare-exchange and one subtraction: its
/// element goes straight to delivery and never touches the queue. Everybody else
/// appends to the queue *before* counting itself, so a drainer that sees the count
/// above zero always finds the element in the queue. The acquire/release orderings on
/// `pending` order one drainer's work before the next one's.
@usableFromInline
final class SerialDrain<Element: Sendable>: Sendable {
    @usableFromInline
    struct Queue: Sendable {
        @usableFromInline var elements: [Element] = []
        @usableFromInline var head = 0

        @inlinable init() {}
    }

    @usableFromInline
    let pending = Atomic<Int>(0)
    @usableFromInline
    let queue = Locked(Queue())

    @inlinable
    init() {}

    /// Enqueues `element`; `true` if the caller became the drainer and must now call
    /// ``drainQueued(_:)``.
    @inlinable
    func enqueue(_ element: Element) -> Bool {
        queue.withLock { $0.elements.append(element) }
        return pending.add(1, ordering: .acquiringAndReleasing).oldValue == 0
    }

    /// Delivers queued elements until none is pending; only the drainer calls it.
    @inlinable
    func drainQueued(_ deliver: (Element) -> Void) {
        repeat {
            deliver(popFirst())
        } while pending.subtract(1, ordering: .acquiringAndReleasing).newValue > 0
    }

    /// Delivers `element`, and whatever is submitted meanwhile, with `deliver` on this
    /// thread if nothing is pending; otherwise leaves it to the current drainer.
    @inlinable @inline(__always)
    func submit(_ element: Element, deliver: (Element) -> Void) {
        if pending.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
            deliver(element)  // nothing was pending: this element is first
            if pending.subtract(1, ordering: .acquiringAndReleasing).newValue > 0 { drainQueued(deliver) }
        } else if enqueue(element) {
            drainQueued(deliver)
        }
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
