import Dispatch
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

/// Promises completed using each other's futures, around cycles of any length.
@Suite struct PromiseCycleTests {
    /// Links `promises[i]` to `promises[i + 1]`'s future, and the last to the first's,
    /// closing the cycle with the last link, or with the last two links on two threads.
    func closeCycle(_ promises: [Promise<Int>], racing: Bool) {
        let count = promises.count
        let link: @Sendable (Int) -> Void = { index in
            _ = promises[index].complete(using: promises[(index + 1) % count].future)
        }
        for index in 0..<(racing ? count - 2 : count - 1) { link(index) }
        if racing {
            DispatchQueue.concurrentPerform(iterations: 2) { thread in link(count - 2 + thread) }
        } else {
            link(count - 1)
        }
    }

    @Test(arguments: [2, 3, 1_000], [false, true])
    func everyFutureInACycleFailsAndEverythingIsFreed(length: Int, racing: Bool) {
        let rounds = racing ? stressIterations(length == 1_000 ? 200 : 10_000, atLeast: 20) : 1
        for _ in 0..<rounds {
            var weakBoxes: [Weak<AnyFutureBox>] = []
            var weakPromises: [Weak<Promise<Int>>] = []
            var futures: [Future<Int>] = []
            do {
                let promises = (0..<length).map { _ in Promise<Int>() }
                weakPromises = promises.map { Weak($0) }
                weakBoxes = promises.map { Weak($0.future.storage.box) }
                futures = promises.map(\.future)
                closeCycle(promises, racing: racing)
            }
            let expected = FutureCycleError(length: length)
            #expect(futures.allSatisfy { $0.peek()?.error as? FutureCycleError == expected })
            futures = []
            #expect(weakPromises.allSatisfy { $0.object == nil })
            #expect(weakBoxes.allSatisfy { $0.object == nil })
        }
    }

    @Test func awaiterOfACycleResumesWithTheError() async {
        let first = Promise<Int>()
        let second = Promise<Int>()
        let awaiting = Task { await first.future.outcome }
        await first.future.waitForAwaiters(count: 1)
        first.complete(using: second.future)
        second.complete(using: first.future)
        let outcome = await awaiting.value
        #expect(outcome.error as? FutureCycleError == FutureCycleError(length: 2))
        #expect("\(FutureCycleError(length: 2))".contains("cycle of 2 futures"))
    }

    @Test func cycleThroughADerivedFutureIsFound() {
        let promise = Promise<Int>()
        let mapped = promise.future.map { $0 + 1 }
        promise.complete(using: mapped)
        #expect(promise.future.peek()?.error as? FutureCycleError == FutureCycleError(length: 2))
        #expect(mapped.peek()?.error as? FutureCycleError == FutureCycleError(length: 2))
    }

    @Test func chainIntoACompletingFutureIsNotACycle() {
        let source = Promise<Int>()
        let middle = Promise<Int>()
        let last = Promise<Int>()
        middle.complete(using: source.future)
        last.complete(using: middle.future)
        source.succeed(3)
        #expect(last.future.peek()?.value == 3)
    }
}

/// A weak reference, for checking that objects were freed.
struct Weak<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}
