import FutureBridge
import FutureBridgeInternals

/// The events waiting for one observer that runs on another executor: handed to its
/// handler one at a time, in order, by one job at a time on that executor, so the handler
/// never runs concurrently with itself, even on a concurrent queue.
///
/// Whoever posts into an empty mailbox (``post(_:)`` returns `true`) schedules the job
/// that ``drain(_:)``s it; everybody else only posts. The turn-taking is
/// ``DeliveryTurn``'s (see its invariant); the events wait here, under a lock.
@usableFromInline
final class Mailbox<Element: Sendable>: Sendable {
    @usableFromInline
    struct Queue: Sendable {
        @usableFromInline var elements: [Element] = []
        @usableFromInline var head = 0

        @inlinable init() {}
    }

    @usableFromInline
    let turn = DeliveryTurn()
    @usableFromInline
    let queue = Locked(Queue())

    @inlinable
    init() {}

    /// Posts `element`; `true` if the caller must now schedule ``drain(_:)``.
    @inlinable
    func post(_ element: Element) -> Bool {
        queue.withLock { $0.elements.append(element) }  // queued before it is counted
        return turn.join()
    }

    /// Hands the posted elements to `deliver` until none is left; only the job the
    /// poster that found the mailbox empty scheduled calls it.
    @inlinable
    func drain(_ deliver: (Element) -> Void) {
        repeat {
            deliver(popFirst())
        } while turn.finishOne()
    }

    @inlinable
    func popFirst() -> Element {
        queue.withLock { queue in
            precondition(queue.head < queue.elements.count, "Mailbox: a posted element is missing")
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
