import FutureBridge
import FutureBridgeInternals

/// An executor that runs nothing until the test says so, so that the test decides
/// exactly when handlers, transforms and hops run, and in what order.
///
/// Use its ``context`` wherever FutureBridge takes an `on:` `ExecutionContext`
/// (or for `Future.hop(to:)`). Each job given to it waits, first in first
/// out, until ``runNext()`` or ``runAll()`` runs it.
///
/// ## Executors and isolation
/// The jobs run synchronously on the thread that calls ``runNext()`` or ``runAll()``, in
/// that caller's isolation (a `@MainActor` test runs them on the main actor). The class
/// holds no isolation itself: queue and run from any thread or task. Nothing runs under
/// its lock.
///
/// ## Cancellation
/// The executor knows nothing of cancellation: a queued job stays queued until it runs
/// (a handler of a cancelled future runs and sees the cancellation). A job that is never
/// run is dropped when the executor is released, and what waits for it never completes;
/// see `ExecutionContext.custom(_:)`.
///
/// ```swift
/// import FutureBridgeTesting
///
/// func handlersRunWhenTheTestSays() {
///     let executor = ManualExecutor()
///     let doubled = Future(value: 21).map(on: executor.context) { $0 * 2 }
///     assert(executor.pendingCount == 1 && !doubled.isCompleted)
///     executor.runAll()
///     assert(doubled.peek()?.value == 42)
/// }
/// ```
public final class ManualExecutor: Sendable {
    private let jobs = Locked(FIFOQueue<@Sendable () -> Void>())

    /// An executor with no job queued.
    public init() {}

    /// This executor as an execution context: each job is queued, from any thread, until
    /// the test runs it with ``runNext()`` or ``runAll()`` on the test's thread and in its
    /// isolation. A queued job stays queued whatever is cancelled meanwhile.
    public var context: ExecutionContext {
        .custom { job in self.jobs.withLock { $0.append(job) } }
    }

    /// How many jobs are queued now (read under the executor's lock, from any thread).
    public var pendingCount: Int { jobs.withLock { $0.count } }

    /// Runs the job queued first, if any, on the calling thread and in the caller's
    /// isolation: `true` if one ran. Synchronous: cancelling the calling task does not
    /// stop it, and the job sees the cancellation only through what it awaits.
    @discardableResult
    public func runNext() -> Bool {
        let job = jobs.withLock { $0.popFirst() }
        guard let job else { return false }
        job()
        return true
    }

    /// Runs queued jobs in order, and the jobs they queue, on the calling thread and in
    /// the caller's isolation until none is left; returns how many ran. Synchronous:
    /// cancelling the calling task does not stop it.
    @discardableResult
    public func runAll() -> Int {
        var ran = 0
        while runNext() { ran += 1 }
        return ran
    }
}
