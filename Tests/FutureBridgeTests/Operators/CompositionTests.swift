import Dispatch
import FutureBridgeInternals
import FutureBridgeTesting
import TestSupport
import Testing

@testable import FutureBridge

/// The serial `+>` and parallel `<>` composition operators for callback functions, and `firstly`.
@Suite struct CompositionTests {
    static let double: CallbackFunction<Int, Int> = { input, completion in completion(.success(input * 2)) }
    static let describe: CallbackFunction<Int, String> = { input, completion in completion(.success("#\(input)")) }
    static let fail: CallbackFunction<Int, Int> = { _, completion in completion(.failure(TestError())) }

    /// Runs a callback function and returns what its completion handler received.
    static func call<Input, Output: Sendable>(
        _ function: CallbackFunction<Input, Output>, _ input: Input
    ) -> [Result<Output, any Error>] {
        let received = Recorder<Result<Output, any Error>>()
        function(input) { received.append($0) }
        return received.all
    }

    @Test func serialPassesEachResultOn() throws {
        let results = Self.call(Self.double +> Self.double +> Self.describe, 3)
        #expect(try results.map { try $0.get() } == ["#12"])
    }

    @Test func serialStopsAtTheFirstError() {
        let later = Counter()
        let counting: CallbackFunction<Int, Int> = { input, completion in
            later.increment()
            completion(.success(input))
        }
        let results = Self.call(Self.double +> Self.fail +> counting, 1)
        #expect(results.count == 1)
        #expect(throws: TestError.self) { try results[0].get() }
        #expect(later.count == 0)
    }

    @Test func parallelRunsBothAndPairsTheResults() throws {
        let results = Self.call(Self.double <> Self.describe, 5)
        let pair = try #require(try results.first?.get())
        #expect(results.count == 1 && pair.0 == 10 && pair.1 == "#5")
    }

    @Test func parallelBindsTighterThanSerial() throws {
        let page = Self.double +> Self.double <> Self.describe  // double, then both
        let pair = try #require(try Self.call(page, 1).first?.get())
        #expect(pair.0 == 4 && pair.1 == "#2")
    }

    @Test func parallelFailsOnceWithTheFirstError() {
        let results = Self.call(Self.fail <> Self.fail, 1)
        #expect(results.count == 1)
    }

    /// The article's `<>` calls its completion twice when both sides complete at once on
    /// different threads; ours completes exactly once.
    @Test func parallelCompletesExactlyOnceUnderConcurrency() {
        let runs = 100_000  // a race test: the full count under the sanitizers too
        let queue = DispatchQueue(label: "tests.parallel", attributes: .concurrent)
        let concurrent: CallbackFunction<Int, Int> = { input, completion in
            queue.async { completion(.success(input)) }
        }
        let both = concurrent <> concurrent
        let completions = Locked([Int](repeating: 0, count: runs))
        let group = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for run in stride(from: thread, to: runs, by: 4) {
                group.enter()
                both(run) { result in
                    if case .success(let pair) = result, pair == (run, run) {
                        completions.withLock { $0[run] += 1 }
                    }
                    group.leave()
                }
            }
        }
        group.wait()
        #expect(completions.withLock { $0 }.allSatisfy { $0 == 1 })
    }

    @Test func futureFunctionsComposeAndForwardCancelRequests() {
        let first = CancellablePromise<Int>()
        let start: FutureFunction<Int, Int> = { _ in first.future }
        let next: FutureFunction<Int, String> = { Future(value: "got \($0)") }
        let chain = (start +> next)(0)
        chain.requestCancellation()
        #expect(first.requests.count == 1)
        #expect(chain.peek()?.isCancelled == true)
    }

    @Test func parallelFutureFunctionsCancelTheOtherSideOnFailure() {
        let reports = withDiagnosticsCapture {
            let slow = Promise<Int>()
            let requests = Counter()
            slow.onCancellationRequest { _ in requests.increment() }
            let left: FutureFunction<Int, Int> = { _ in slow.future }
            let right: FutureFunction<Int, Int> = { _ in Future(error: TestError()) }
            let both = (left <> right)(0)
            #expect(both.peek()?.error is TestError)
            #expect(requests.count == 1)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned])
    }

    @Test func abandonedStepFailsTheChainWithItsSite() {
        let reports = withDiagnosticsCapture {
            let dropping: CallbackFunction<Int, Int> = { _, _ in }  // never calls, releases it
            let line = #line + 1
            let step = futureFunction(dropping)
            let results = Self.call(callbackFunction(step +> futureFunction(Self.double)), 1)
            let error = results.first.flatMap { result -> AbandonedPromiseError? in
                if case .failure(let error) = result { error as? AbandonedPromiseError } else { nil }
            }
            #expect(error?.line == line)
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned])
    }

    @Test func firstlyTurnsAThrowIntoAFailedFuture() {
        #expect(firstly { Future(value: 1) }.map { $0 + 1 }.peek()?.value == 2)
        #expect(firstly { () throws -> Future<Int> in throw TestError() }.peek()?.error is TestError)
    }
}
