/// A list that keeps its first element inline and allocates only for a second one.
///
/// Almost every future has exactly one callback, so the common case costs no array.
struct InlineList<Element> {
    private var first: Element?
    private var rest: [Element] = []

    init() {}

    var isEmpty: Bool { first == nil }

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
    struct Iterator: IteratorProtocol {
        private var first: Element?
        private var rest: IndexingIterator<[Element]>

        fileprivate init(_ list: InlineList) {
            first = list.first
            rest = list.rest.makeIterator()
        }

        @inline(__always)
        mutating func next() -> Element? {
            if let element = first {
                first = nil
                return element
            }
            return rest.next()
        }
    }

    func makeIterator() -> Iterator { Iterator(self) }

    var underestimatedCount: Int { first == nil ? 0 : 1 + rest.count }
}
