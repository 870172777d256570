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

    public init(description: String) {}

    /// Lets one ``wait(for:timeout:)`` return.
    public func fulfill() {
        semaphore.signal()
    }

    fileprivate func wait() {
        semaphore.wait()
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
