/// A first-in, first-out queue whose `popFirst()` costs O(1): elements are taken out of
/// their slots as they leave, and the slots are dropped together once the queue has
/// emptied, so a million elements queued and taken cost a million steps, not a million
/// squared (as `Array.removeFirst()` would).
package struct FIFOQueue<Element> {
    /// The elements; those before `head` have left and are `nil`.
    private var slots: [Element?] = []
    private var head = 0

    package init() {}

    /// How many elements are queued.
    package var count: Int { slots.count - head }

    /// Whether nothing is queued.
    package var isEmpty: Bool { head == slots.count }

    /// Queues `element` at the back.
    package mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Takes the element at the front, or `nil` if none is queued.
    package mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: slots.count <= 1_024)
            head = 0
        }
        return element
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
