import Dispatch
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct FutureCancellationTests {
    @Test func producerWithoutAHandlerKeepsGoing() {
        let promise = Promise<Int>()
        promise.future.requestCancellation()
        #expect(promise.isCancellationRequested)
        #expect(!promise.isCompleted)
        #expect(promise.succeed(1))
    }

    @Test func handlerDecidesToCancel() {
        let promise = Promise<Int>()
        promise.onCancellationRequest { $0.cancel() }
        promise.future.requestCancellation()
        #expect(promise.future.peek()?.isCancelled == true)
    }

    @Test func handlerRegisteredAfterTheRequestRunsAtOnce() {
        let reports = withDiagnosticsCapture {
            let promise = Promise<Int>()
            promise.future.requestCancellation()
            let runs = Counter()
            promise.onCancellationRequest { _ in runs.increment() }
            #expect(runs.count == 1)
        }
        #expect(reports.isEmpty)  // left pending after its request reached it, nothing waiting: not misuse
    }

    @Test func handlerRunsAtMostOnce() {
        let reports = withDiagnosticsCapture {
            let promise = Promise<Int>()
            let runs = Counter()
            promise.onCancellationRequest { _ in runs.increment() }
            promise.future.requestCancellation()
            promise.future.requestCancellation()
            let token = promise.future.cancellationToken()
            token.cancel()
            #expect(runs.count == 1)
        }
        #expect(reports.isEmpty)  // left pending after its request reached it, nothing waiting: not misuse
    }

    @Test func handlerNeverRunsAfterCompletion() {
        let promise = Promise<Int>()
        let runs = Counter()
        promise.onCancellationRequest { _ in runs.increment() }
        promise.succeed(1)
        promise.future.requestCancellation()
        #expect(runs.count == 0)
    }

    @Test func handlerDoesNotKeepThePromiseAlive() {
        let reports = withDiagnosticsCapture {
            weak var weakPromise: Promise<Int>?
            let future: Future<Int>
            do {
                let promise = Promise<Int>()
                promise.onCancellationRequest { $0.cancel() }
                weakPromise = promise
                future = promise.future
            }
            #expect(weakPromise == nil)
            #expect(future.peek()?.error is AbandonedPromiseError)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned])  // a promise left pending on purpose
    }

    @Test func sharedFutureIsCancelledOnlyWhenEveryTokenIsCancelled() {
        let reports = withDiagnosticsCapture {
            let promise = Promise<Int>()
            let runs = Counter()
            promise.onCancellationRequest { _ in runs.increment() }
            let first = promise.future.cancellationToken()
            let second = promise.future.cancellationToken()
            first.cancel()
            #expect(runs.count == 0)
            promise.future.requestCancellation()  // a consumer without a token: one more vote
            #expect(runs.count == 0)
            second.cancel()
            #expect(runs.count == 1)
            #expect(first.isCancelled && second.isCancelled)
        }
        #expect(reports.isEmpty)  // left pending after its request reached it, nothing waiting: not misuse
    }

    @Test func releasedTokenGivesItsInterestBackWithoutCancelling() {
        let reports = withDiagnosticsCapture {
            let promise = Promise<Int>()
            let runs = Counter()
            promise.onCancellationRequest { _ in runs.increment() }
            var token: CancellationToken? = promise.future.cancellationToken()
            #expect(promise.future.interestCount == 1)
            token = nil
            #expect(token == nil)
            #expect(promise.future.interestCount == 0)
            #expect(runs.count == 0)
            promise.future.requestCancellation()
            #expect(runs.count == 1)
        }
        #expect(reports.isEmpty)  // left pending after its request reached it, nothing waiting: not misuse
    }

    @Test func requestTravelsThroughAMapAndFlatMapChainToTheRoot() {
        let root = CancellablePromise<Int>()
        let chain = root.future
            .map { $0 + 1 }
            .flatMap { Future(value: $0 * 2) }
            .map { "\($0)" }
        chain.requestCancellation()
        #expect(root.requests.count == 1)
        #expect(chain.peek()?.isCancelled == true)
    }

    @Test func flatMapForwardsToTheInnerFutureOnceItRuns() {
        let root = Promise<Int>()
        let inner = Promise<String>()
        let rootRuns = Counter()
        let innerRuns = Counter()
        root.onCancellationRequest { _ in rootRuns.increment() }
        inner.onCancellationRequest { promise in
            innerRuns.increment()
            promise.cancel()
        }
        let chain = root.future.flatMap { _ in inner.future }
        root.succeed(1)
        chain.requestCancellation()
        #expect(rootRuns.count == 0)
        #expect(innerRuns.count == 1)
        #expect(chain.peek()?.isCancelled == true)
    }

    @Test func requestMadeBeforeFlatMapSwitchesReachesTheInnerFutureToo() {
        let reports = withDiagnosticsCapture {
            let root = Promise<Int>()
            let inner = Promise<Int>()
            let innerRuns = Counter()
            inner.onCancellationRequest { _ in innerRuns.increment() }
            let chain = root.future.flatMap { _ in inner.future }
            chain.requestCancellation()  // root keeps going (no handler) ...
            root.succeed(1)  // ... and the current future now is `inner`
            #expect(innerRuns.count == 1)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned])  // a promise left pending on purpose
    }

    @Test func sourceSharedByTwoDerivedFuturesNeedsBothCancelled() {
        let reports = withDiagnosticsCapture {
            let root = Promise<Int>()
            let runs = Counter()
            root.onCancellationRequest { _ in runs.increment() }
            let doubled = root.future.map { $0 * 2 }
            let tripled = root.future.map { $0 * 3 }
            doubled.requestCancellation()
            #expect(runs.count == 0)
            tripled.requestCancellation()
            #expect(runs.count == 1)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned])  // a promise left pending on purpose
    }

    @Test func completeUsingForwardsRequestsToTheOtherFuture() {
        let reports = withDiagnosticsCapture {
            let source = Promise<Int>()
            let runs = Counter()
            source.onCancellationRequest { _ in runs.increment() }
            let promise = Promise<Int>()
            promise.complete(using: source.future)
            promise.future.requestCancellation()
            #expect(runs.count == 1)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned])  // a promise left pending on purpose
    }

    @Test func cancelRequestRacingCompletionHasExactlyOneOutcome() {
        let total = 100_000  // a race test: the full count under the sanitizers too
        let batch = 1_000
        var remaining = total
        while remaining > 0 {
            let size = min(batch, remaining)
            remaining -= size
            let handlerRuns = Locked([Int](repeating: 0, count: size))
            let promises = (0..<size).map { index in
                let promise = Promise<Int>()
                promise.onCancellationRequest { promise in
                    handlerRuns.withLock { $0[index] += 1 }
                    promise.cancel()
                }
                return promise
            }
            let outcomes = Locked([Int](repeating: 0, count: size))
            for (index, promise) in promises.enumerated() {
                promise.future.onComplete { _ in outcomes.withLock { $0[index] += 1 } }
            }
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                for promise in promises {
                    if thread == 0 { promise.future.requestCancellation() } else { promise.succeed(1) }
                }
            }
            #expect(outcomes.withLock { $0 }.allSatisfy { $0 == 1 })
            let runs = handlerRuns.withLock { $0 }
            #expect(runs.allSatisfy { $0 <= 1 })
            for (index, promise) in promises.enumerated() where promise.future.peek()?.isCancelled == true {
                #expect(runs[index] == 1)
            }
        }
    }
}
