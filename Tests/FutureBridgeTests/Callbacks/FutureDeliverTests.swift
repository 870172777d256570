import Foundation
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

/// A future (or async code) delivered to legacy completion handlers of every shape.
@Suite struct FutureDeliverTests {
    /// The three outcomes every shape is checked against.
    static let outcomes: [Outcome<Int>] = [.success(7), .failure(TestError()), .cancelled]

    /// What a two-value completion handler received, as text.
    static func describe(_ value: Int?, _ error: (any Error)?) -> String {
        "\(value.map(String.init) ?? "nil") \(error.map { "\(type(of: $0))" } ?? "nil")"
    }

    static let expectedPairs = ["7 nil", "nil TestError", "nil CancellationError"]

    @Test(arguments: zip(outcomes, expectedPairs))
    func resultShape(outcome: Outcome<Int>, expected: String) {
        let received = Recorder<String>()
        Future(outcome: outcome).deliver { (result: Result<Int, any Error>) in
            switch result {
            case .success(let value): received.append(Self.describe(value, nil))
            case .failure(let error): received.append(Self.describe(nil, error))
            }
        }
        #expect(received.all == [expected])
    }

    @Test(arguments: zip(outcomes, expectedPairs))
    func valueErrorShape(outcome: Outcome<Int>, expected: String) {
        let received = Recorder<String>()
        Future(outcome: outcome).deliver { (value: Int?, error: (any Error)?) in
            received.append(Self.describe(value, error))
        }
        #expect(received.all == [expected])
    }

    @Test(arguments: zip(outcomes, expectedPairs))
    func errorValueShape(outcome: Outcome<Int>, expected: String) {
        let received = Recorder<String>()
        Future(outcome: outcome).deliver { (error: (any Error)?, value: Int?) in
            received.append(Self.describe(value, error))
        }
        #expect(received.all == [expected])
    }

    @Test(arguments: zip(outcomes, ["7 nil", "-1 TestError", "-1 CancellationError"]))
    func nonOptionalValueShapeGetsThePlaceholderWithAnError(outcome: Outcome<Int>, expected: String) {
        let received = Recorder<String>()
        Future(outcome: outcome).deliver(
            to: { (value: Int, error: (any Error)?) in received.append(Self.describe(value, error)) },
            valueOnFailure: -1)
        #expect(received.all == [expected])
    }

    @Test(arguments: zip(outcomes, expectedPairs))
    func successAndFailureHandlers(outcome: Outcome<Int>, expected: String) {
        let received = Recorder<String>()
        Future(outcome: outcome).deliver(
            success: { received.append(Self.describe($0, nil)) },
            failure: { received.append(Self.describe(nil, $0)) })
        #expect(received.all == [expected])
    }

    @Test func valueOnlyShapeIsCalledOnSuccessAndAFailureIsReported() {
        let received = Recorder<Int>()
        let line = #line + 4
        let reports = withDiagnosticsCapture {
            Future(value: 7).deliver { (value: Int) in received.append(value) }
            Future<Int>.cancelled.deliver { (value: Int) in received.append(value) }
            Future<Int>(error: TestError()).deliver { (value: Int) in received.append(value) }
        }
        #expect(received.all == [7])
        #expect(reports.map(\.kind) == [.failureNotDelivered])
        #expect(reports.map(\.line) == [line])
        #expect(reports.first?.message.contains("TestError") == true)
    }

    @Test func voidShapes() {
        let errors = Recorder<String>()
        for outcome in [Outcome<Void>.success, .failure(TestError()), .cancelled] {
            Future(outcome: outcome).deliver { (error: (any Error)?) in
                errors.append(error.map { "\(type(of: $0))" } ?? "nil")
            }
        }
        #expect(errors.all == ["nil", "TestError", "CancellationError"])

        let calls = Counter()
        let line = #line + 4
        let reports = withDiagnosticsCapture {
            Future<Void>.succeeded.deliver { calls.increment() }
            Future<Void>.cancelled.deliver { calls.increment() }
            Future<Void>(error: TestError()).deliver { calls.increment() }
        }
        #expect(calls.count == 1)
        #expect(reports.map(\.kind) == [.failureNotDelivered])
        #expect(reports.map(\.line) == [line])
    }

    @Test func multiValueShapeLikeURLSession() {
        let received = Recorder<String>()
        let completion: @Sendable (Data?, String?, (any Error)?) -> Void = { data, text, error in
            received.append("\(data?.count ?? -1) \(text ?? "nil") \(error.map { "\(type(of: $0))" } ?? "nil")")
        }
        Future<(Data?, String?)>(value: (Data([1, 2]), "ok")).deliver(to: completion)
        Future<(Data?, String?)>(error: TestError()).deliver(to: completion)
        Future<(Data?, String?)>.cancelled.deliver(to: completion)
        #expect(received.all == ["2 ok nil", "-1 nil TestError", "-1 nil CancellationError"])
    }

    @Test func deliversOnTheChosenExecutorOnceCompleted() {
        let executor = ManualExecutor()
        let promise = Promise<Int>()
        let received = Recorder<Int?>()
        promise.future.deliver(on: executor.context) { (value: Int?, _: (any Error)?) in received.append(value) }
        promise.succeed(3)
        #expect(received.all.isEmpty)
        #expect(executor.runAll() == 1)
        #expect(received.all == [3])
    }

    @Test func legacyCallerCancelsThroughTheReturnedToken() {
        let promise = CancellablePromise<Int>()
        let received = Recorder<String>()
        let token = promise.future.deliver { (value: Int?, error: (any Error)?) in
            received.append(Self.describe(value, error))
        }
        let other = promise.future.cancellationToken()  // a second consumer still wants it
        token.cancel()
        #expect(promise.requests.count == 0)
        other.cancel()
        #expect(promise.requests.count == 1)
        #expect(received.all == ["nil CancellationError"])
    }

    @Test func discardedTokenNeitherCancelsNorLosesTheDelivery() {
        let promise = Promise<Int>()
        let received = Recorder<Int?>()
        promise.future.deliver { (value: Int?, _: (any Error)?) in received.append(value) }
        #expect(promise.future.interestCount == 0)  // the released token gave its interest back
        #expect(!promise.isCancellationRequested)
        promise.succeed(1)
        #expect(received.all == [1])
    }

    /// The token is the delivery's interest, as any token: discarded, it no longer keeps
    /// the future wanted, and the handler gets the cancellation other consumers make.
    @Test func discardedTokenGivesUpTheInterestAndTheHandlerGetsTheCancellationOnce() {
        let promise = CancellablePromise<Int>()
        let received = Recorder<String>()
        promise.future.deliver { (value: Int?, error: (any Error)?) in received.append(Self.describe(value, error)) }
        promise.future.cancellationToken().cancel()
        #expect(promise.requests.count == 1)
        #expect(received.all == ["nil CancellationError"])
    }

    @Test func asyncFunctionServesALegacyCaller() async throws {
        @Sendable func modern(_ id: Int) async throws -> String { "user \(id)" }
        // The old callback entry point, now implemented with async code.
        @Sendable func legacy(_ id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
            Future { try await modern(id) }.deliver(to: completion)
        }
        let answer = try await withPromise(of: String.self) { promise in legacy(7, completion: promise.resolve) }
        #expect(answer == "user 7")
    }

    @available(ClockAPI, *)
    @Test func legacyCancellationCancelsTheAsyncWork() async {
        let started = Promise<Void>()
        let future = Future { () async throws -> Int in
            started.succeed()
            try await Task.sleep(for: .seconds(3_600))  // ends only by cancellation
            return 1
        }
        let received = Promise<String>()
        let token = future.deliver { (value: Int?, error: (any Error)?) in received.succeed(Self.describe(value, error))
        }
        _ = await started.future.outcome
        token.cancel()
        #expect(await received.future.outcome.value == "nil CancellationError")
    }
}
