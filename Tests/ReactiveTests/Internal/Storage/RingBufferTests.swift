import Testing

@testable import Reactive

@Suite struct RingBufferTests {
    /// Elements come out in the order they went in, whatever the ring's wrap-around and
    /// growth in between.
    @Test func elementsComeOutInOrderAcrossWrapsAndGrowth() {
        var ring = RingBuffer<Int>()
        var expected: [Int] = []
        var taken: [Int] = []
        var next = 0
        // Fill a little more than is taken on each round, so that the ring wraps and grows.
        for round in 1...40 {
            for _ in 0..<round + 3 {
                ring.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<round { taken.append(ring.popFirst()!) }
        }
        while let element = ring.popFirst() { taken.append(element) }
        #expect(taken == expected)
        #expect(ring.isEmpty && ring.count == 0 && ring.popFirst() == nil)
    }

    /// A ring that held a million elements frees their slots once it has drained; a ring
    /// whose size stays small keeps its few slots and never reallocates.
    @Test func aDrainedRingFreesLargeStorageAndKeepsSmallStorage() {
        var ring = RingBuffer<Int>()
        for element in 0..<1_000_000 { ring.append(element) }
        #expect(ring.capacity == 1 << 20)
        var inOrder = true
        for element in 0..<1_000_000 where ring.popFirst() != element { inOrder = false }
        #expect(inOrder)
        #expect(ring.capacity == 0)
        for element in 0..<1_000_000 {
            ring.append(element)
            if element % 3 == 2 { while ring.popFirst() != nil {} }
        }
        #expect(ring.capacity == 16)
    }

    @Test func prependPutsAnotherRingsElementsInFront() {
        var front = RingBuffer<Int>()
        var ring = RingBuffer<Int>()
        for element in 0..<20 { front.append(element) }
        for element in 20..<50 { ring.append(element) }
        _ = front.popFirst()
        ring.prepend(front)
        var all: [Int] = []
        while let element = ring.popFirst() { all.append(element) }
        #expect(all == Array(1..<50))
    }

    @Test func removeAllHandsBackEveryElementAndFreesTheSlots() {
        var ring = RingBuffer<Int>()
        for element in 0..<20 { ring.append(element) }
        _ = ring.popFirst()
        let removed = ring.removeAll()
        #expect(removed.compactMap { $0 }.sorted() == Array(1..<20))
        #expect(ring.isEmpty && ring.capacity == 0)
    }
}
