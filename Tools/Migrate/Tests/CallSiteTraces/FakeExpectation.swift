import Dispatch

/// A stand-in for `XCTestExpectation` in the trace programs (the trace harness runs its
/// programs outside an `XCTestCase`): `fulfill()` lets ``wait(for:timeout:)`` return.
///
/// The harness runs an XCTest-style program before its rewrite only through outcomes that
/// call the handler (a value, an error, twice): for a handler released uncalled or held,
/// XCTest's `wait` times out and fails the test, which this stand-in does not imitate (it
/// would wait for ever), so those runs are not made.
public final class FakeExpectation: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    /// The expectations waited for, which ``XCTFail(_:)`` ends.
    private static let waiting = DispatchQueue(label: "FakeExpectation")
    // Read and written on `waiting` only.
    nonisolated(unsafe) private static var pending: [FakeExpectation] = []

    public init(description: String) {
        Self.waiting.sync { Self.pending.append(self) }
    }

    /// Ends every wait (see ``XCTFail(_:)``).
    fileprivate static func failAll() {
        let all = waiting.sync {
            defer { pending = [] }
            return pending
        }
        for expectation in all { expectation.semaphore.signal() }
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

/// `XCTFail(_:)`: the test fails. Its `wait` then times out; this stand-in ends the waits at
/// once, so that a program whose failure path does not fulfil its expectation ends (a wait
/// of a program running at the same time may return early too: its trace is the same, since
/// the harness waits for the API's deliveries before reading it).
// swift-format-ignore: AlwaysUseLowerCamelCase
public func XCTFail(_ message: String = "") {
    FakeExpectation.failAll()
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
