import Dispatch
import Foundation

/// A stand-in for `XCTestExpectation` in the trace programs (the trace harness runs its
/// programs outside an `XCTestCase`): `fulfill()` lets ``wait(for:timeout:)`` return.
///
/// The harness runs an XCTest-style program before its rewrite only through outcomes that
/// call the handler (a value, an error, twice): for a handler released uncalled or held,
/// XCTest's `wait` times out and fails the test, which this stand-in does not imitate (it
/// would wait for ever), so those runs are not made.
public final class FakeExpectation: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    /// The API of the run that made it (see ``FakeAPI/current``).
    private let run = FakeAPI.current
    /// The expectations waited for, which ``XCTFail(_:)`` ends.
    private static let waiting = DispatchQueue(label: "FakeExpectation")
    // Read and written on `waiting` only.
    nonisolated(unsafe) private static var pending: [FakeExpectation] = []

    public init(description: String) {
        Self.waiting.sync { Self.pending.append(self) }
    }

    /// Ends the waits of the run `run` (see ``XCTFail(_:)``), or every wait when it is not known.
    fileprivate static func fail(run: ObjectIdentifier?) {
        let failed = waiting.sync {
            let failed = pending.filter { run == nil || $0.run == nil || $0.run == run }
            pending.removeAll { run == nil || $0.run == nil || $0.run == run }
            return failed
        }
        for expectation in failed { expectation.semaphore.signal() }
    }

    /// Whether a wait for it would still block: neither fulfilled and waited for, nor ended by
    /// ``XCTFail(_:)``.
    public var isPending: Bool {
        Self.waiting.sync { Self.pending.contains { $0 === self } }
    }

    /// Lets one ``wait(for:timeout:)`` return.
    public func fulfill() {
        semaphore.signal()
    }

    fileprivate func wait() {
        semaphore.wait()
        Self.waiting.sync { Self.pending.removeAll { $0 === self } }
    }
}

/// `XCTFail(_:)`: the test fails. Its `wait` then times out; this stand-in ends the waits of
/// the same run at once, so that a program whose failure path does not fulfil its
/// expectation ends. Only that run's: a program running at the same time that checks after
/// its wait what its handler set would otherwise check before its handler ran. (Where the
/// run is not known, a handler on the main queue, every wait ends.)
///
/// It logs `test failed` to the run's trace: once a test has failed, what it does next does
/// not change its result, and the harness compares traces up to there (a test that throws
/// out of an `async throws` method fails the same way: see ``runTest(_:_:_:)``).
// swift-format-ignore: AlwaysUseLowerCamelCase
public func XCTFail(_ message: String = "") {
    FakeTesting.api?.trace.log("test failed")
    FakeExpectation.fail(run: FakeAPI.current)
}

/// `XCTAssertNil(_:_:)`: fails the test (``XCTFail(_:)``) when `value` is not nil.
// swift-format-ignore: AlwaysUseLowerCamelCase
public func XCTAssertNil(_ value: Any?, _ message: String = "") {
    if value != nil { XCTFail(message) }
}

/// `XCTAssertTrue(_:_:)`: logs what it checked, and fails the test (``XCTFail(_:)``) when false.
// swift-format-ignore: AlwaysUseLowerCamelCase
public func XCTAssertTrue(_ condition: Bool, _ message: String = "") {
    FakeTesting.api?.trace.log("asserted \(condition)")
    if !condition { XCTFail(message) }
}

/// Runs an XCTest-style program that throws as XCTest runs a throwing test method: an error
/// thrown out of it fails the test, logged as ``XCTFail(_:)`` logs it.
public func runTest<T>(
    _ api: FakeAPI, _ trace: Trace, _ program: (FakeAPI, Trace) async throws -> T
) async {
    do {
        _ = try await program(api, trace)
    } catch {
        trace.log("test failed")
    }
}

/// `XCTestCase.expectation(description:)`.
public func expectation(description: String) -> FakeExpectation {
    FakeExpectation(description: description)
}

/// `XCTestCase.wait(for:timeout:)`: returns once every expectation is fulfilled (the
/// timeout is not imitated: see ``FakeExpectation``).
public func wait(for expectations: [FakeExpectation], timeout: Double) {
    for expectation in expectations { expectation.wait() }
}

/// `XCTestCase.fulfillment(of:timeout:)`: returns once every expectation is fulfilled (the
/// timeout is not imitated: see ``FakeExpectation``).
public func fulfillment(of expectations: [FakeExpectation], timeout: Double) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            for expectation in expectations { expectation.wait() }
            done.resume()
        }
    }
}

/// A value a test's handler sets and the test checks after its `wait` (what an XCTest test
/// keeps in a captured `var`): reading it logs `checked <value>`, so that the trace shows
/// the check and what it read.
public final class Received: @unchecked Sendable {
    // @unchecked: `stored` is only read and written while `lock` is held.
    private let lock = NSLock()
    private var stored: String?
    private let trace: Trace

    public init(trace: Trace) {
        self.trace = trace
    }

    public var value: String? {
        get {
            let value = lock.withLock { stored }
            trace.log("checked \(value ?? "nil")")
            return value
        }
        set { lock.withLock { stored = newValue } }
    }
}

/// `XCTAssertEqual(_:_:)`: records whether the test passes, which the trace does not show
/// (what it read is logged by ``Received``).
// swift-format-ignore: AlwaysUseLowerCamelCase
public func XCTAssertEqual<T: Equatable>(_ first: T, _ second: T, _ message: String = "") {}
