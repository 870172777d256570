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

    /// Calls `body` on each element in insertion order.
    @inline(__always)
    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let first else { return }
        try body(first)
        for element in rest { try body(element) }
    }
}
