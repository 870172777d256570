import TestSupport
import Testing

@testable import FutureBridge

/// A third-party operation object that presents itself as a future.
final class LegacyOperation: FutureConvertible, Sendable {
    let promise = Promise<String>()
    let cancelled = Counter()

    init() {
        promise.onCancellationRequest { [cancelled] promise in
            cancelled.increment()
            promise.cancel()
        }
    }

    func finish(_ text: String) { promise.succeed(text) }

    var future: Future<String> { promise.future }
}

@Suite struct FutureConvertibleTests {
    @Test func flatMapFollowsAConvertibleAndForwardsCancelRequestsToIt() {
        let operation = LegacyOperation()
        let chained = Future(value: 1).flatMap { _ in operation }
        #expect(!chained.isCompleted)
        operation.finish("done")
        #expect(chained.peek()?.value == "done")

        let other = LegacyOperation()
        let cancelled = Future(value: 1).flatMap { _ in other }
        cancelled.requestCancellation()
        #expect(other.cancelled.count == 1)
        #expect(cancelled.peek()?.isCancelled == true)
    }

    @Test func convertibleCanBeAwaited() async throws {
        let operation = LegacyOperation()
        operation.finish("awaited")
        #expect(try await operation.value == "awaited")
    }

    @Test func promiseCanBeCompletedUsingAConvertible() {
        let operation = LegacyOperation()
        let promise = Promise<String>()
        #expect(promise.complete(using: operation))
        operation.finish("followed")
        #expect(promise.future.peek()?.value == "followed")
    }

    @Test func aPromiseIsConvertibleToo() {
        let inner = Promise<Int>()
        let chained = Future(value: 1).flatMap { _ in inner }
        inner.succeed(2)
        #expect(chained.peek()?.value == 2)
    }
}
