import TestSupport
import Testing

@testable import FutureBridge

/// Cancel requests travelling a long way: down a chain of a million pending links, into
/// a tree of nested combined futures. Each runs on a thread with the 512 KiB stack of
/// Apple's secondary threads: requests, like completions, must not nest a call per link.
@Suite struct FutureCancellationDepthTests {
    static let links = stressIterations(1_000_000, atLeast: 100_000)

    @Test func millionLinkMapChainCancelledAtTheEnd() {
        runOnThread(stackSize: secondaryThreadStackSize) {
            let head = CancellablePromise<Int>()
            var future = head.future
            for _ in 0..<Self.links { future = future.map { $0 + 1 } }
            future.requestCancellation()
            #expect(head.requests.count == 1)
            #expect(future.peek()?.isCancelled == true)
        }
    }

    @Test func millionLinkCompleteUsingChainCancelledAtTheEnd() {
        runOnThread(stackSize: secondaryThreadStackSize) {
            let head = CancellablePromise<Int>()
            var promises: [Promise<Int>] = []
            var future = head.future
            for _ in 0..<Self.links {
                let next = Promise<Int>()
                next.complete(using: future)
                promises.append(next)
                future = next.future
            }
            future.requestCancellation()
            #expect(head.requests.count == 1)
            #expect(future.peek()?.isCancelled == true)
        }
    }

    /// Inputs already there, the first step pending: the steps after it are a chain of
    /// pending `flatMap`s as long as the input.
    @Test func millionInputFoldWithAPendingStepCancelledAtTheEnd() {
        runOnThread(stackSize: secondaryThreadStackSize) {
            let step = CancellablePromise<Int>()
            let inputs = (0..<Self.links).map { Future(value: $0) }
            let steps = Counter()
            let total = fold(inputs, 0) { _, _ in
                steps.increment()
                return step.future
            }
            total.requestCancellation()
            #expect(steps.count == 1)
            #expect(step.requests.count == 1)
            #expect(total.peek()?.isCancelled == true)
        }
    }

    @Test func millionPendingInputFoldCancelledAtTheEnd() {
        runOnThread(stackSize: secondaryThreadStackSize) {
            let inputs = (0..<Self.links).map { _ in CancellablePromise<Int>() }
            let total = fold(inputs.map(\.future), 0) { sum, value in Future(value: sum + value) }
            total.requestCancellation()
            #expect(inputs.allSatisfy { $0.requests.count == 1 })
            #expect(total.peek()?.isCancelled == true)
        }
    }

    @Test func whenAllTreeHundredThousandDeepCancelledAtTheTop() {
        runOnThread(stackSize: secondaryThreadStackSize) {
            let leaf = CancellablePromise<Int>()
            let sibling = CancellablePromise<Int>()
            var tree: Future<[Int]> = whenAll([leaf.future, sibling.future])
            for _ in 0..<stressIterations(100_000, atLeast: 10_000) { tree = whenAll([tree]).map { $0[0] } }
            tree.requestCancellation()
            #expect(leaf.requests.count == 1)
            #expect(sibling.requests.count == 1)
            #expect(tree.peek()?.isCancelled == true)
        }
    }

    @Test func requestMadeInsideACancelHandlerIsDeliveredBeforeTheOuterRequestReturns() {
        let inner = CancellablePromise<Int>()
        let outer = Promise<Int>()
        let order = Recorder<String>()
        outer.onCancellationRequest { _ in
            inner.future.requestCancellation()
            order.append("outer handler returns")
        }
        inner.promise.onCancellationRequest { _ in order.append("inner handler") }
        outer.future.requestCancellation()
        #expect(order.all == ["outer handler returns", "inner handler"])
        #expect(inner.future.peek()?.isCancelled == true)
        outer.succeed(0)
    }
}
