import Foundation

/// A stand-in for Swift Testing's `Confirmation` in the trace programs (the trace harness
/// runs its programs outside a test, where a real confirmation has no test to record its
/// issue in): counts its calls, as the real one does.
public final class FakeConfirmation: @unchecked Sendable {
    // @unchecked: `count` is only read and written while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    init() {}

    /// `confirmed()`: counts `count` confirmations.
    public func callAsFunction(count: Int = 1) {
        confirm(count: count)
    }

    /// `confirmed.confirm()`.
    public func confirm(count: Int = 1) {
        lock.withLock { self.count += count }
    }

    var confirmations: Int { lock.withLock { count } }
}

/// The API of the run: where the stand-in records its issues (its trace, as a `test:` event).
public enum FakeTesting {
    @TaskLocal public static var api: FakeAPI?
}

/// Swift Testing's `confirmation(_:expectedCount:_:)`: runs `body`, then, as the real one
/// records an issue, logs `test: confirmed N times, expected M` to the trace of
/// ``FakeTesting/api`` when the count differs. Like the real one, it returns when `body`
/// returns: a handler called later is not counted. That API's deliveries wait until then:
/// with a real API, which calls back on a queue of its own, the order is a race (a handler
/// that happens to run first is counted); the stand-in shows a handler called later.
public func confirmation<R>(
    _ comment: String? = nil, expectedCount: Int = 1, isolation: isolated (any Actor)? = #isolation,
    _ body: (FakeConfirmation) async throws -> sending R
) async rethrows -> R {
    let confirmation = FakeConfirmation()
    let api = FakeTesting.api
    api?.queue.suspend()
    defer { api?.queue.resume() }
    let result = try await body(confirmation)
    let actual = confirmation.confirmations
    if actual != expectedCount {
        api?.trace.log("test: confirmed \(actual) times, expected \(expectedCount)")
    }
    return result
}

extension CallSiteProgram {
    /// A Swift Testing program (`ConfirmationTestRule`): before its rewrite, its confirmation
    /// returns before the API calls back, and logs the miscount (see ``confirmation(_:expectedCount:isolation:_:)``).
    public var isConfirmation: Bool { name.hasPrefix("ConfirmationTestRule:") }

    /// A program that waits for its handler with a continuation (`ContinuationCallRule`, and
    /// the bridges of `KeptHandleRule`).
    public var isContinuation: Bool { name.hasPrefix("ContinuationCallRule:") || isBridge }

    /// A hand-written bridge (`KeptHandleRule`): a continuation in `withTaskCancellationHandler`,
    /// whose `onCancel` cancels the call's handle, which then calls the handler with `CancellationError`.
    public var isBridge: Bool { name.hasPrefix("KeptHandleRule: a bridge") }

    /// A bridge whose handle is stored in a ``FakeHandleBox``, which tells the harness when
    /// the handle is stored: it cancels the task then (``FakeAPI/stored()``), not before.
    public var storesInBox: Bool { isBridge && name.contains("holder") }

    /// Why a continuation's program before its rewrite is not run with `outcome`: a handler
    /// never called leaves the task suspended for ever (held, it waits for the handler after
    /// its cancellation); called twice, the continuation is resumed twice, which crashes.
    func continuationNotRun(_ outcome: Outcome) -> String? {
        guard isContinuation else { return nil }
        switch outcome {
        case .dropped: return "the continuation is never resumed: the task is suspended for ever"
        case .held:
            if storesInBox { return nil }
            return isBridge
                ? "`onCancel` may run before the call has stored the handle, and cancel nothing: a race, not run"
                : "the continuation ignores the cancellation: the task waits for the handler"
        case .twice: return "the continuation is resumed twice: the process crashes"
        default: return nil
        }
    }
}
