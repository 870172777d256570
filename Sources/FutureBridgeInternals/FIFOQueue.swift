// Invariants: `slots[..<head]` are all `nil` (elements that left), `slots[head...]` are
// all non-nil (queued, oldest first); the left slots are dropped once they are at least
// `reclaimThreshold` and half of the array, or the queue is empty.

/// A first-in, first-out queue whose `popFirst()` costs O(1): elements are taken out of
/// their slots as they leave, and the slots of those that left are dropped together,
/// once they are half of the queue (or the queue has emptied). A million elements queued
/// and taken cost a million steps, not a million squared (as `Array.removeFirst()` would),
/// and a queue that never empties, one element in for each one out, keeps as many slots
/// as it holds elements, not one per element that ever passed.
@usableFromInline
package struct FIFOQueue<Element> {
    /// The elements; those before `head` have left and are `nil`.
    @usableFromInline var slots: [Element?] = []
    @usableFromInline var head = 0

    /// Slots of elements that left that the queue may keep before it drops them.
    @inlinable package static var reclaimThreshold: Int { 64 }

    @inlinable
    package init() {}

    /// How many elements are queued.
    @inlinable
    package var count: Int { slots.count - head }

    /// Whether nothing is queued.
    @inlinable
    package var isEmpty: Bool { head == slots.count }

    /// Slots the queue holds now, those of elements that left included (for tests).
    @inlinable
    package var slotCount: Int { slots.count }

    /// Queues `element` at the back.
    @inlinable
    package mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Takes the element at the front, or `nil` if none is queued.
    @inlinable
    package mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: slots.capacity <= 2 * Self.reclaimThreshold)
            head = 0
        } else if head >= Self.reclaimThreshold && head * 2 >= slots.count {
            slots.removeSubrange(0..<head)
            head = 0
        }
        return element
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
