import Foundation
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct PromiseTests {
    @Test func firstCompletionWins() {
        let promise = Promise<Int>()
        #expect(promise.succeed(1))
        #expect(promise.future.peek()?.value == 1)
    }

    @Test func secondCompletionIsIgnored() {
        let promise = Promise<Int>()
        let calls = Counter()
        promise.future.onComplete { _ in calls.increment() }
        #expect(promise.succeed(1))
        #expect(!promise.succeed(2))
        #expect(!promise.fail(TestError()))
        #expect(!promise.cancel())
        #expect(!promise.complete(with: .success(3)))
        #expect(promise.future.peek()?.value == 1)
        #expect(calls.count == 1)
    }

    @Test func failAndCancelComplete() {
        let failed = Promise<Int>()
        #expect(failed.fail(TestError(code: 4)))
        #expect(failed.future.peek()?.error as? TestError == TestError(code: 4))

        let cancelled = Promise<Int>()
        #expect(cancelled.cancel())
        #expect(cancelled.future.peek()?.isCancelled == true)
    }

    @Test func failingWithACancellationErrorCancels() {
        let promise = Promise<Int>()
        let failures = Counter()
        let cancels = Counter()
        promise.future.onFailure { _ in failures.increment() }.onCancel { cancels.increment() }
        promise.fail(CancellationError())
        #expect(promise.future.peek()?.isCancelled == true)
        #expect(failures.count == 0)
        #expect(cancels.count == 1)
    }

    @Test func voidPromiseSucceedsWithoutAnArgument() {
        let promise = Promise<Void>()
        #expect(promise.succeed())
        #expect(promise.future.peek()?.value != nil)
    }

    @Test func completingUsingAnotherFutureTakesItsOutcome() {
        let source = Promise<Int>()
        let promise = Promise<Int>()
        #expect(promise.complete(using: source.future))
        #expect(!promise.isCompleted)
        // Bound: only the source completes it now.
        #expect(!promise.succeed(9))
        #expect(!promise.complete(using: Future(value: 8)))
        source.succeed(5)
        #expect(promise.future.peek()?.value == 5)
    }

    @Test func completingUsingAFutureLosesAfterCompletion() {
        let promise = Promise<Int>()
        promise.succeed(1)
        #expect(!promise.complete(using: Future(value: 2)))
        #expect(promise.future.peek()?.value == 1)
    }

    @Test func abandonedPromiseFailsItsFutureWithItsCreationSite() throws {
        weak var weakPromise: Promise<Int>?
        weak var weakBox: FutureBox<Int>?
        var future: Future<Int>?
        let line = #line + 2
        let reports = withDiagnosticsCapture {
            let promise = Promise<Int>()
            weakPromise = promise
            future = promise.future
            weakBox = future?.storage.box
        }
        #expect(weakPromise == nil)
        let error = try #require(future?.peek()?.error as? AbandonedPromiseError)
        #expect(error == AbandonedPromiseError(fileID: #fileID, line: line))
        #expect("\(error)".contains("PromiseTests.swift:\(line)"))
        #expect(reports.map(\.line) == [line])
        #expect(reports.first?.kind == .promiseAbandoned)
        #expect(reports.first?.description.hasPrefix("FUTUREBRIDGE MISUSE: promiseAbandoned:") == true)
        future = nil
        #expect(weakBox == nil)
    }

    @Test func anAbandonedPromiseNamesAnyFileIDItWasGivenExactly() {
        // Non-ASCII text, an empty string, and a string made from one Unicode scalar
        // (which has no text in memory): each must come back as given.
        let given: [StaticString] = ["Módulo/Ünïcode.swift", "", StaticString(unicodeScalarLiteral: "é")]
        let reports = withDiagnosticsCapture {
            for fileID in given {
                let error = Promise<Int>(fileID: fileID, line: 7).future.peek()?.error
                #expect(error as? AbandonedPromiseError == AbandonedPromiseError(fileID: "\(fileID)", line: 7))
            }
        }
        #expect(reports.map(\.fileID) == given.map { "\($0)" })
    }

    @Test func completedPromiseIsNotReportedWhenReleased() {
        let reports = withDiagnosticsCapture {
            let promise = Promise<Int>()
            promise.succeed(1)
        }
        #expect(reports.isEmpty)
    }

    @Test func promiseBoundToAnotherFutureIsNotAbandonedWhenReleased() {
        let source = Promise<Int>()
        var future: Future<Int>?
        let reports = withDiagnosticsCapture {
            let promise = Promise<Int>()
            promise.complete(using: source.future)
            future = promise.future
            source.succeed(3)
        }
        #expect(future?.peek()?.value == 3)
        #expect(reports.isEmpty)
    }

    @Test func abandonedAwaitedFutureResumesTheTask() async throws {
        var promise: Promise<Int>? = Promise<Int>()
        let future = promise!.future
        async let awaited = future.outcome
        await future.waitForAwaiters(count: 1)
        promise = nil
        let outcome = await awaited
        #expect(outcome.error is AbandonedPromiseError)
    }

    /// A callback API that ignores cancel requests: it keeps the completion handlers it is
    /// given (and, for the test, the futures they complete) until told to drop them.
    final class IgnoringAPI: Sendable {
        private let handlers = Locked<[@Sendable (Result<Int, any Error>) -> Void]>([])
        private let futures = Locked<[Future<Int>]>([])

        func load(_ promise: Promise<Int>) {
            handlers.withLock { $0.append(promise.resolve) }
            futures.withLock { $0.append(promise.future) }
        }

        /// A task awaiting a call through `withPromise`, once it is suspended, and the
        /// call's future.
        func awaitedCall() async -> (task: Task<Int, any Error>, future: Future<Int>) {
            let task = Task { try await withPromise(of: Int.self) { self.load($0) } }
            while true {
                if let future = futures.withLock({ $0.first }) {
                    await future.waitForAwaiters(count: 1)
                    return (task, future)
                }
                await Task.yield()
            }
        }

        /// Releases every handler without calling it (outside the lock).
        func dropAll() {
            let dropped = handlers.withLock { handlers in
                defer { handlers.removeAll() }
                return handlers
            }
            withExtendedLifetime(dropped) {}
        }
    }

    @Test func promiseReleasedAfterItsCancelledAwaiterLeftIsNotReported() async {
        let api = IgnoringAPI()
        let reports = await withDiagnosticsCapture {
            let (task, future) = await api.awaitedCall()
            task.cancel()  // the request reaches the promise; the API ignores it
            #expect(await task.result.error is CancellationError)
            api.dropAll()
            #expect(future.peek()?.isCancelled == true)
        }
        #expect(reports.isEmpty)
    }

    @Test func promiseReleasedAfterACancelRequestWhileATaskStillAwaitsIsReported() async {
        let api = IgnoringAPI()
        let reports = await withDiagnosticsCapture {
            let (first, future) = await api.awaitedCall()
            first.cancel()
            #expect(await first.result.error is CancellationError)
            let second = Task { try await future.value }  // arrives after the request
            await future.waitForAwaiters(count: 1)
            api.dropAll()
            #expect(await second.result.error is AbandonedPromiseError)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned])
    }

    @Test func promiseReleasedAfterACancelRequestWhileAHandlerWaitsIsReported() {
        let reports = withDiagnosticsCapture {
            var promise: Promise<Int>? = Promise<Int>()
            let future = promise!.future
            let outcomes = Recorder<Outcome<Int>>()
            future.onComplete { outcomes.append($0) }  // observes without an interest
            future.requestCancellation()
            #expect(promise?.isCancellationRequested == true)
            promise = nil
            #expect(outcomes.all.first?.error is AbandonedPromiseError)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned])
    }

    @Test func promiseReleasedWithoutACancelRequestIsReported() async {
        let api = IgnoringAPI()
        let reports = await withDiagnosticsCapture {
            let (task, _) = await api.awaitedCall()
            api.dropAll()
            #expect(await task.result.error is AbandonedPromiseError)

            // Nobody waits either: the one interest went back without asking to cancel.
            var promise: Promise<Int>? = Promise<Int>()
            let future = promise!.future
            var token: CancellationToken? = future.cancellationToken()
            token = nil
            #expect(token == nil && future.interestCount == 0)
            promise = nil
            #expect(future.peek()?.error is AbandonedPromiseError)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned, .promiseAbandoned])
    }

    @Test func sharedFutureReleasedAfterOneOfTwoAwaitersCancelledIsReported() async {
        let api = IgnoringAPI()
        let reports = await withDiagnosticsCapture {
            let (first, future) = await api.awaitedCall()
            let second = Task { try await future.value }
            await future.waitForAwaiters(count: 2)
            first.cancel()  // the other awaiter still wants the value: no request
            #expect(await first.result.error is CancellationError)
            api.dropAll()
            #expect(await second.result.error is AbandonedPromiseError)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned])
    }
}
