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
            self.init(first: list.first, rest: list.rest)
        }

        @inlinable init(first: Element?, rest: [Element]) {
            self.first = first
            self.rest = rest.makeIterator()
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

/// The callbacks of a pending future, the first one inline.
///
/// Not an ``InlineList`` of ``OutcomeCallback``: a closure stored as a bare generic
/// `Element` is kept at the most general abstraction, which costs a reabstraction thunk,
/// one more allocation (48 bytes) per handler. Declared with the closure's own type, the
/// first callback is stored as it is made.
@usableFromInline
struct CallbackList<Value: Sendable>: Sequence {
    @usableFromInline var first: OutcomeCallback<Value>?
    @usableFromInline var rest: [OutcomeCallback<Value>] = []

    @inlinable init() {}

    @inlinable var isEmpty: Bool { first == nil }

    @inlinable
    mutating func append(_ callback: @escaping OutcomeCallback<Value>) {
        if first == nil {
            first = callback
        } else {
            rest.append(callback)
        }
    }

    @inlinable func makeIterator() -> InlineList<OutcomeCallback<Value>>.Iterator {
        InlineList.Iterator(first: first, rest: rest)
    }

    @inlinable var underestimatedCount: Int { first == nil ? 0 : 1 + rest.count }
}
