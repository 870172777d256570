import FutureBridge

extension Future {
    /// Suspends (yielding, never sleeping) until at least `count` tasks are registered,
    /// suspended, awaiting this future (through `Future.value`,
    /// `Future.outcome` or `Future.result`): `true` then;
    /// `false` if the future completes first (which resumes its awaiters) or the waiting
    /// task is cancelled.
    ///
    /// A task takes its place among the awaiters only once it suspends (a task already
    /// cancelled, or awaiting a completed future, never does), and leaves it when it is
    /// cancelled or resumed. Once this returns `true`, cancelling one of those tasks
    /// affects that awaiter alone, so per-awaiter cancellation is tested without a
    /// sleep. Blocking waits (`Future.wait(timeout:)`) and handlers do not
    /// count.
    ///
    /// Runs in no isolation of its own; it yields in a loop, so that the tasks it waits
    /// for, on whatever executor, get to run.
    ///
    /// ```swift
    /// import FutureBridgeTesting
    ///
    /// func cancellingOneAwaiter() async {
    ///     let promise = Promise<Int>()
    ///     let first = Task { try await promise.future.value }
    ///     let second = Task { try await promise.future.value }
    ///     await promise.future.waitForAwaiters(count: 2)
    ///     first.cancel()                  // `first` alone throws CancellationError, at once
    ///     promise.succeed(1)              // `second` gets 1
    ///     _ = (await first.result, await second.result)
    /// }
    /// ```
    ///
    /// - Parameter count: How many suspended awaiters to wait for.
    @discardableResult
    public func waitForAwaiters(count: Int) async -> Bool {
        while awaiterCount < count {
            if isCompleted || Task.isCancelled { return false }
            await Task.yield()
        }
        return true
    }
}
