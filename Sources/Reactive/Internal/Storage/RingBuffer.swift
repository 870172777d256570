/// A first-in, first-out queue kept in one array used as a ring: appending and taking
/// the first element cost O(1) and move no other element.
///
/// The array's size is a power of two (so a position wraps with a mask) and doubles when
/// the ring is full. A ring that empties keeps its slots if there are at most
/// ``retainedCapacity`` of them, and frees them otherwise: a ring of steady size never
/// reallocates, and one that held a million elements does not keep their slots once it
/// has drained.
@usableFromInline
struct RingBuffer<Element> {
    /// The elements, from `head`, wrapping; the other slots are `nil`.
    @usableFromInline var slots: ContiguousArray<Element?> = []
    /// The slot of the first element.
    @usableFromInline var head = 0
    /// How many elements are queued.
    @usableFromInline private(set) var count = 0

    /// The most slots an empty ring keeps.
    @inlinable static var retainedCapacity: Int { 4096 }

    @inlinable
    init() {}

    /// Whether nothing is queued.
    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The slots the ring holds now (for tests: memory stays flat).
    @inlinable
    var capacity: Int { slots.count }

    /// Queues `element` at the back.
    @inlinable
    mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head &+ count) & (slots.count &- 1)] = element
        count &+= 1
    }

    /// Takes the element at the front, or `nil` if none is queued.
    @inlinable
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head = (head &+ 1) & (slots.count &- 1)
        count &-= 1
        if count == 0 { emptied() }
        return element
    }

    /// Queues `front`'s elements before this ring's, in their order.
    @inlinable
    mutating func prepend(_ front: consuming RingBuffer) {
        while let element = popFirst() { front.append(element) }
        self = front
    }

    /// Takes every element out, leaving the ring empty and without slots: the caller
    /// releases them.
    @inlinable
    mutating func removeAll() -> ContiguousArray<Element?> {
        defer { self = RingBuffer() }
        return slots
    }

    /// Doubles the slots (at least 16), moving the elements, in order, to the start.
    @inlinable
    mutating func grow() {
        let capacity = Swift.max(16, 2 * slots.count)
        var grown = ContiguousArray<Element?>()
        grown.reserveCapacity(capacity)
        for offset in 0..<count {
            grown.append(slots[(head &+ offset) & (slots.count &- 1)].take())
        }
        grown.append(contentsOf: repeatElement(nil, count: capacity - count))
        slots = grown
        head = 0
    }

    /// The ring has emptied: starts again at slot 0, and frees the slots beyond
    /// ``retainedCapacity``.
    @inlinable
    mutating func emptied() {
        head = 0
        if slots.count > Self.retainedCapacity { slots = [] }
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
