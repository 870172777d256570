import FutureBridge
import FutureBridgeInternals

/// Runs `body` and returns the `Diagnostic` reports raised inside it, and
/// only those: misuse reported while `body` runs, by code running where this scope is
/// visible, goes to this scope instead of the process-wide handler
/// (`Diagnostics.setHandler(_:)`), so that tests running in parallel
/// never see each other's reports.
///
/// What the scope captures: the reports raised synchronously on the thread running
/// `body` (a promise released there while pending, a completion handler called twice
/// there, a failure not delivered there), whether or not that thread runs a task. What it
/// does not: reports raised on another thread, a Dispatch queue or an
/// `ExecutionContext` job that `body` started (the scope is a task-local
/// value, which those do not see), and reports raised after `body` returned. Those go to
/// the handler. A nested scope takes the reports raised inside it; the outer one does
/// not see them.
///
/// A `Task` that `body` creates inherits the scope, but only its reports raised before
/// `body` returns are captured.
///
/// `body` runs at once, on the calling thread, in the caller's isolation. If it throws,
/// the reports captured so far go to an enclosing scope, or else to the handler, and the
/// error is rethrown. It is synchronous: cancellation does not apply to it.
///
/// ```swift
/// import FutureBridgeTesting
///
/// func releasingAPendingPromiseIsReported() {
///     let reports = withDiagnosticsCapture {
///         _ = Promise<Int>()
///     }
///     assert(reports.map(\.kind) == [.promiseAbandoned])
/// }
/// ```
///
/// - Parameter body: The code whose reports to capture.
/// - Returns: The reports, in the order they were raised.
public func withDiagnosticsCapture(_ body: () throws -> Void) rethrows -> [Diagnostic] {
    let capture = DiagnosticsCapture()
    do {
        try Diagnostics.$captureSink.withValue(capture) { try body() }
    } catch {
        capture.handOver()
        throw error
    }
    return capture.close()
}

/// Runs the async `body` and returns the `Diagnostic` reports raised
/// inside it, and only those: misuse reported by code running in this task while `body`
/// runs, and in the tasks it creates, goes to this scope instead of the process-wide
/// handler (`Diagnostics.setHandler(_:)`), so that tests running in
/// parallel never see each other's reports.
///
/// What the scope captures: the reports raised by code running in the scope's task and
/// in its child tasks (`async let`, task groups) and the `Task { }` it creates, wherever
/// the task-local value is visible, while `body` runs. What it does not: reports raised
/// on a Dispatch queue, another thread or an `ExecutionContext` job (for
/// example a handler run on `.global()`), or in a `Task.detached`, none of which see the
/// task's task-local values, and reports raised after `body` returned (by a `Task` it
/// left running). Those go to the handler. A nested scope takes the reports raised inside
/// it; the outer one does not see them.
///
/// `body` runs in the caller's isolation (`isolation`, by default the caller's actor, so
/// a `@MainActor` test may touch its state). If it throws, the reports captured so far
/// go to an enclosing scope, or else to the handler, and the error is rethrown.
/// Cancellation is the body's own: the scope neither checks nor changes it.
///
/// A body with no `await` in it calls the synchronous form
/// (``withDiagnosticsCapture(_:)``), even from async code: write it without `await`.
///
/// ```swift
/// import FutureBridgeTesting
///
/// func abandonedPromisesAreReported() async throws {
///     let reports = await withDiagnosticsCapture {
///         let promise = Promise<Int>()
///         await Task.yield()
///         _ = promise
///     }
///     assert(reports.map(\.kind) == [.promiseAbandoned])
/// }
/// ```
///
/// - Parameters:
///   - isolation: Where `body` runs; the caller's isolation by default.
///   - body: The code whose reports to capture.
/// - Returns: The reports, in the order they were raised.
public func withDiagnosticsCapture(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows -> [Diagnostic] {
    let capture = DiagnosticsCapture()
    do {
        try await Diagnostics.$captureSink.withValue(capture) { try await body() }
    } catch {
        capture.handOver()
        throw error
    }
    return capture.close()
}

/// The reports of one scope, taken from any thread until the scope closes.
private final class DiagnosticsCapture: DiagnosticsCaptureSink {
    private struct State {
        var isOpen = true
        var reports: [Diagnostic] = []
    }

    private let state = Locked(State())

    /// The sink: keeps `diagnostic` while the scope is open (`true`); `false` after.
    func take(_ diagnostic: Diagnostic) -> Bool {
        state.withLock { state in
            guard state.isOpen else { return false }
            state.reports.append(diagnostic)
            return true
        }
    }

    /// Ends the scope: later reports go to the handler. Returns what it captured.
    func close() -> [Diagnostic] {
        state.withLock { state in
            state.isOpen = false
            return state.reports
        }
    }

    /// Ends the scope and reports again what it captured, outside it: to an enclosing
    /// scope, or the handler.
    func handOver() {
        for report in close() { Diagnostics.report(report) }
    }
}
