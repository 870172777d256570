import Foundation
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

/// Callback APIs of every shape, called synchronously so the tests stay deterministic.
enum Legacy {
    static func result(_ ok: Bool, _ completion: (Result<Int, TestError>) -> Void) {
        completion(ok ? .success(1) : .failure(TestError()))
    }
    static func valueError(_ value: Int?, _ error: (any Error)?, _ completion: (Int?, (any Error)?) -> Void) {
        completion(value, error)
    }
    static func errorValue(_ value: Int?, _ error: (any Error)?, _ completion: ((any Error)?, Int?) -> Void) {
        completion(error, value)
    }
    static func nonOptionalValue(_ error: (any Error)?, _ completion: (Int, (any Error)?) -> Void) {
        completion(3, error)
    }
    static func errorOnly(_ error: (any Error)?, _ completion: ((any Error)?) -> Void) { completion(error) }
    static func valueOnly(_ completion: (Int) -> Void) { completion(4) }
    static func nothing(_ completion: () -> Void) { completion() }
    static func pair(success: (Int) -> Void, failure: (any Error) -> Void, ok: Bool) {
        if ok { success(5) } else { failure(TestError()) }
    }
    static func triple(
        _ data: Data?, _ text: String?, _ error: (any Error)?, _ completion: (Data?, String?, (any Error)?) -> Void
    ) {
        completion(data, text, error)
    }
}

@Suite struct PromiseCallbacksTests {
    @Test func resultShape() {
        #expect(Future<Int> { Legacy.result(true, $0.resolve) }.peek()?.value == 1)
        #expect(Future<Int> { Legacy.result(false, $0.resolve) }.peek()?.error is TestError)
    }

    @Test func valueErrorShape() {
        #expect(Future<Int> { Legacy.valueError(1, nil, $0.resolve) }.peek()?.value == 1)
        #expect(Future<Int> { Legacy.valueError(nil, TestError(), $0.resolve) }.peek()?.error is TestError)
        #expect(Future<Int> { Legacy.valueError(1, TestError(), $0.resolve) }.peek()?.error is TestError)
    }

    @Test func errorValueShape() {
        #expect(Future<Int> { Legacy.errorValue(2, nil, $0.resolve) }.peek()?.value == 2)
        #expect(Future<Int> { Legacy.errorValue(nil, TestError(), $0.resolve) }.peek()?.error is TestError)
    }

    @Test func nonOptionalValueShape() {
        #expect(Future<Int> { Legacy.nonOptionalValue(nil, $0.resolve) }.peek()?.value == 3)
        #expect(Future<Int> { Legacy.nonOptionalValue(TestError(), $0.resolve) }.peek()?.error is TestError)
    }

    @Test func errorOnlyAndNoArgumentShapesForVoid() {
        #expect(Future<Void> { Legacy.errorOnly(nil, $0.resolve) }.peek()?.value != nil)
        #expect(Future<Void> { Legacy.errorOnly(TestError(), $0.resolve) }.peek()?.error is TestError)
        #expect(Future<Void> { Legacy.nothing($0.resolve) }.peek()?.value != nil)
    }

    @Test func valueOnlyAndSuccessFailurePairShapes() {
        #expect(Future<Int> { Legacy.valueOnly($0.resolve) }.peek()?.value == 4)
        #expect(Future<Int> { Legacy.pair(success: $0.resolve, failure: $0.reject, ok: true) }.peek()?.value == 5)
        #expect(
            Future<Int> { Legacy.pair(success: $0.resolve, failure: $0.reject, ok: false) }.peek()?.error is TestError)
    }

    @Test func multiValueShapeLikeURLSession() throws {
        let both = Future<(Data?, String?)> { Legacy.triple(Data([1]), "ok", nil, $0.resolve) }
        let value = try #require(both.peek()?.value)
        #expect(value.0 == Data([1]) && value.1 == "ok")
        let failed = Future<(Data?, String?)> { Legacy.triple(Data([1]), nil, TestError(), $0.resolve) }
        #expect(failed.peek()?.error is TestError)
        let empty = Future<(Data?, String?)> { Legacy.triple(nil, nil, nil, $0.resolve) }
        #expect(
            empty.peek()?.error as? InvalidCallbackError
                == InvalidCallbackError(convention: "(First?, Second?, Error?)"))
    }

    @Test func neitherValueNorErrorNamesTheConvention() {
        let valueFirst = Future<Int> { Legacy.valueError(nil, nil, $0.resolve) }
        #expect(
            valueFirst.peek()?.error as? InvalidCallbackError == InvalidCallbackError(convention: "(Value?, Error?)"))
        let errorFirst = Future<Int> { Legacy.errorValue(nil, nil, $0.resolve) }
        #expect(
            errorFirst.peek()?.error as? InvalidCallbackError == InvalidCallbackError(convention: "(Error?, Value?)"))
        #expect("\(InvalidCallbackError(convention: "(Value?, Error?)"))".contains("(Value?, Error?)"))
    }

    @Test func cancellationErrorFromTheCallbackCancels() {
        #expect(Future<Int> { Legacy.valueError(nil, CancellationError(), $0.resolve) }.peek()?.isCancelled == true)
        #expect(Future<Int> { Legacy.valueError(nil, URLError(.cancelled), $0.resolve) }.peek()?.isCancelled == true)
    }

    @Test func secondCallIsIgnoredAndReported() {
        let line = #line + 1
        let promise = Promise<Int>()
        let reports = withDiagnosticsCapture {
            promise.resolve(1, nil)
            promise.resolve(2, nil)
            promise.reject(TestError())
        }
        #expect(promise.future.peek()?.value == 1)
        #expect(reports.map(\.line) == [line, line])
        #expect(reports.allSatisfy { $0.kind == .completedTwice })
    }

    @Test func firstCallAfterACancellationIsNotMisuse() {
        let promise = Promise<Int>()
        let reports = withDiagnosticsCapture {
            promise.onCancellationRequest { $0.cancel() }
            promise.future.requestCancellation()
            promise.resolve(nil, URLError(.cancelled))  // the API reports its cancellation late
        }
        #expect(promise.future.peek()?.isCancelled == true)
        #expect(reports.isEmpty)
    }

    @Test func throwingBodyFailsTheFuture() {
        let future = Future<Int> { _ in throw TestError(code: 9) }
        #expect(future.peek()?.error as? TestError == TestError(code: 9))
    }

    @Test func droppedCompletionHandlerAbandonsThePromiseWithTheBridgeSite() throws {
        let line = #line + 3
        var future = Future<Int>.cancelled
        let reports = withDiagnosticsCapture {
            future = Future<Int> { promise in _ = { promise.resolve(1) } }  // never called
        }
        let error = try #require(future.peek()?.error as? AbandonedPromiseError)
        #expect(error == AbandonedPromiseError(fileID: #fileID, line: line))
        #expect(reports.map(\.kind) == [.promiseAbandoned])
        #expect(reports.map(\.line) == [line])
    }
}

@Suite struct WithPromiseTests {
    /// Keeps completion handlers, like a callback API with work in flight.
    final class PendingCalls: Sendable {
        let handlers = Locked<[@Sendable (Int?, (any Error)?) -> Void]>([])
        func load(completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
            handlers.withLock { $0.append(completion) }
        }
        func finishAll(with value: Int) {
            for handler in handlers.withLock({ $0 }) { handler(value, nil) }
        }
        func dropAll() { handlers.withLock { $0.removeAll() } }
    }

    @Test func returnsTheCallbacksValue() async throws {
        let value = try await withPromise(of: Int.self) { Legacy.valueError(6, nil, $0.resolve) }
        #expect(value == 6)
    }

    @Test func throwsTheCallbacksError() async {
        await #expect(throws: TestError.self) {
            try await withPromise(of: Int.self) { Legacy.valueError(nil, TestError(), $0.resolve) }
        }
    }

    @Test func releasedHandlerResumesTheTaskWithTheBridgeSite() async throws {
        let api = PendingCalls()
        let line = #line + 2
        let task = Task {
            try await withPromise(of: Int.self) { promise in api.load(completion: promise.resolve) }
        }
        while api.handlers.withLock({ $0.isEmpty }) { await Task.yield() }
        api.dropAll()
        let error = try #require(await task.result.error as? AbandonedPromiseError)
        #expect(error == AbandonedPromiseError(fileID: #fileID, line: line))
    }

    @Test func cancellingTheTaskSendsACancelRequestAndThrowsAtOnce() async {
        let api = PendingCalls()
        let requests = Counter()
        let task = Task {
            try await withPromise(of: Int.self) { promise in
                promise.onCancellationRequest { _ in requests.increment() }  // the API keeps going
                api.load(completion: promise.resolve)
            }
        }
        while api.handlers.withLock({ $0.isEmpty }) { await Task.yield() }
        task.cancel()
        #expect(await task.result.error is CancellationError)
        #expect(requests.count == 1)
        api.finishAll(with: 1)  // the late completion is not misuse and changes nothing
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
