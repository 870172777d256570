import Dispatch
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct FutureCombineTests {
    // MARK: whenAll over a parameter pack

    @Test func whenAllOfDifferentTypesGivesATypedTuple() {
        let number = Promise<Int>()
        let text = Promise<String>()
        let all = whenAll(number.future, text.future, Future(value: true))
        text.succeed("b")
        #expect(!all.isCompleted)
        number.succeed(1)
        let values = all.peek()?.value
        #expect(values?.0 == 1 && values?.1 == "b" && values?.2 == true)
    }

    @Test func whenAllOfManyTypesIsNotLimitedToAFewOverloads() {
        let all = whenAll(
            Future(value: 1), Future(value: "2"), Future(value: 3.0), Future(value: [4]), Future(value: 5 as UInt8),
            Future(value: Int8(6)), Future(value: "7"), Future(value: 8), Future(value: 9), Future(value: 10),
            Future(value: 11), Future(value: "12"))
        #expect(all.peek()?.value?.11 == "12")
    }

    @Test func whenAllFailsWithTheFirstFailureAndCancelsTheOthers() {
        let slow = CancellablePromise<Int>(honour: false)
        let failing = Promise<String>()
        let all = whenAll(slow.future, failing.future)
        failing.fail(TestError())
        #expect(all.peek()?.error is TestError)
        #expect(slow.requests.count == 1)
    }

    @Test func cancelRequestOnWhenAllReachesEveryInput() {
        let a = CancellablePromise<Int>()
        let b = CancellablePromise<String>()
        let all = whenAll(a.future, b.future)
        all.requestCancellation()
        #expect(a.requests.count == 1 && b.requests.count == 1)
        #expect(all.peek()?.isCancelled == true)
    }

    @Test func inputSharedWithAnotherConsumerIsNotCancelledForIt() {
        let shared = CancellablePromise<Int>()
        let token = shared.future.cancellationToken()
        let all = whenAll(shared.future, Future<Int>(error: TestError()))
        #expect(all.peek()?.error is TestError)
        #expect(shared.requests.count == 0)
        token.cancel()
        #expect(shared.requests.count == 1)
    }

    // MARK: whenAll over a collection

    @Test func whenAllOfACollectionKeepsInputOrder() {
        let promises = (0..<5).map { _ in Promise<Int>() }
        let all = whenAll(promises.map(\.future))
        for (index, promise) in promises.enumerated().reversed() { promise.succeed(index * 10) }
        #expect(all.peek()?.value == [0, 10, 20, 30, 40])
        #expect(whenAll([Future<Int>]()).peek()?.value == [])
    }

    @Test func whenAllOfACollectionCancelsTheRestWhenOneIsCancelled() {
        let inputs = (0..<3).map { _ in CancellablePromise<Int>(honour: false) }
        let all = whenAll(inputs.map(\.future))
        inputs[1].promise.cancel()
        #expect(all.peek()?.isCancelled == true)
        #expect(inputs.map(\.requests.count) == [1, 0, 1])
    }

    @Test func whenAllCompletesExactlyOnceWhenInputsCompleteOnManyThreads() {
        let iterations = stressIterations(2_000, atLeast: 500)
        for _ in 0..<iterations {
            let promises = (0..<8).map { _ in Promise<Int>() }
            let runs = Counter()
            whenAll(promises.map(\.future)).onComplete { _ in runs.increment() }
            DispatchQueue.concurrentPerform(iterations: promises.count) { index in
                if index == 3 { promises[index].fail(TestError()) } else { promises[index].succeed(index) }
            }
            #expect(runs.count == 1)
        }
    }

    // MARK: whenAllSettled

    @Test func whenAllSettledWaitsForEveryOutcome() {
        let pending = Promise<Int>()
        let settled = whenAllSettled([Future(value: 1), Future(error: TestError()), .cancelled, pending.future])
        #expect(!settled.isCompleted)
        pending.succeed(4)
        let outcomes = settled.peek()?.value ?? []
        #expect(outcomes.map(\.value) == [1, nil, nil, 4])
        #expect(outcomes[1].error is TestError && outcomes[2].isCancelled)
    }

    // MARK: whenAny and race

    @Test func whenAnyTakesTheFirstSuccessAndCancelsTheLosers() {
        let failing = Promise<Int>()
        let winner = Promise<Int>()
        let loser = CancellablePromise<Int>(honour: false)
        let any = whenAny([failing.future, winner.future, loser.future])
        failing.fail(TestError())
        #expect(!any.isCompleted)
        winner.succeed(2)
        #expect(any.peek()?.value == 2)
        #expect(loser.requests.count == 1)
    }

    @Test func whenAnyFailsWithTheFirstFailureWhenNoneSucceeds() {
        let any = whenAny([Future<Int>.cancelled, Future(error: TestError(code: 1)), Future(error: TestError(code: 2))])
        #expect(any.peek()?.error as? TestError == TestError(code: 1))
        #expect(whenAny([Future<Int>.cancelled, .cancelled]).peek()?.isCancelled == true)
        #expect(whenAny([Future<Int>]()).peek()?.error as? EmptyInputError == EmptyInputError(operation: "whenAny"))
    }

    @Test func raceTakesTheFirstOutcomeWhateverItIs() {
        let slow = CancellablePromise<Int>()
        let fast = Promise<Int>()
        let first = race([slow.future, fast.future])
        fast.fail(TestError())
        #expect(first.peek()?.error is TestError)
        #expect(slow.requests.count == 1)
        #expect(race([Future<Int>]()).peek()?.error is EmptyInputError)
    }

    // MARK: reduce and fold

    @Test func reduceCombinesTheValuesInInputOrder() {
        let futures = ["a", "b", "c"].map { Future(value: $0) }
        #expect(reduce(futures, "") { $0 + $1 }.peek()?.value == "abc")
        #expect(reduce([Future(value: 1), Future(error: TestError())], 0, +).peek()?.error is TestError)
    }

    @Test func foldRunsAnAsynchronousStepPerValueInOrder() {
        let executor = ManualExecutor()
        let steps = Recorder<Int>()
        let folded = fold((1...4).map { Future(value: $0) }, 0, on: executor.context) { total, value in
            steps.append(value)
            return Future(value: total + value)
        }
        executor.runAll()
        #expect(folded.peek()?.value == 10)
        #expect(steps.all == [1, 2, 3, 4])
    }

    @Test func foldStopsAtAFailingStep() {
        let calls = Counter()
        let folded = fold((1...4).map { Future(value: $0) }, 0) { total, value -> Future<Int> in
            calls.increment()
            return value == 2 ? Future(error: TestError()) : Future(value: total + value)
        }
        #expect(folded.peek()?.error is TestError)
        #expect(calls.count == 2)
    }
}
