/// A list that keeps its first element inline and allocates only for a second one.
///
/// Almost every future has exactly one callback, so the common case costs no array.
@usableFromInline
struct InlineList<Element> {
    @usableFromInline var first: Element?
    @usableFromInline var rest: [Element] = []

    @inlinable init() {}

    @inlinable var isEmpty: Bool { first == nil }

    @inlinable
    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

}

extension InlineList: Sequence {
    /// Iterates in insertion order.
    @usableFromInline
    struct Iterator: IteratorProtocol {
        @usableFromInline var first: Element?
        @usableFromInline var rest: IndexingIterator<[Element]>

        @inlinable init(_ list: InlineList) {
            first = list.first
            rest = list.rest.makeIterator()
        }

        @inlinable @inline(__always)
        mutating func next() -> Element? {
            if let element = first {
                first = nil
                return element
            }
            return rest.next()
        }
    }

    @inlinable func makeIterator() -> Iterator { Iterator(self) }

    @inlinable var underestimatedCount: Int { first == nil ? 0 : 1 + rest.count }
}
