import TestSupport
import Testing

@testable import FutureBridgeInternals

@Suite struct FIFOQueueTests {
    @Test func elementsLeaveInTheOrderTheyCame() {
        var queue = FIFOQueue<Int>()
        #expect(queue.popFirst() == nil)
        for index in 0..<1_000 { queue.append(index) }
        var taken: [Int] = []
        for _ in 0..<500 { taken.append(queue.popFirst()!) }
        for index in 1_000..<1_200 { queue.append(index) }
        while let element = queue.popFirst() { taken.append(element) }
        #expect(taken == Array(0..<1_200))
        #expect(queue.isEmpty && queue.count == 0 && queue.slotCount == 0)
    }

    /// A queue that never empties (one in for each one out, ten always waiting), as a
    /// limiter's backlog or a manual executor whose jobs queue jobs: the slots of the
    /// elements that left are reclaimed, so it keeps a few slots, not one per element
    /// that ever passed.
    @Test func aQueueThatNeverEmptiesKeepsFewSlots() {
        var queue = FIFOQueue<Int>()
        for index in 0..<10 { queue.append(index) }
        let passes = stressIterations(1_000_000, atLeast: 100_000)
        var next = 10
        var expected = 0
        var mostSlots = 0
        var outOfOrder = 0
        for _ in 0..<passes {
            if queue.popFirst() != expected { outOfOrder += 1 }
            expected += 1
            queue.append(next)
            next += 1
            mostSlots = max(mostSlots, queue.slotCount)
        }
        #expect(outOfOrder == 0)
        #expect(queue.count == 10)
        #expect(mostSlots <= 200)
    }
}
