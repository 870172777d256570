import Dispatch

extension FutureStorage {
    /// Suspends until the future completes or the awaiting task is cancelled: one lock
    /// round trip, which returns the outcome at once or registers the task; the
    /// completion resumes it without another (it takes the awaiter out of the state with
    /// every other callback), and a cancellation removes it in one.
    ///
    /// While suspended the task holds an interest. Task cancellation removes it from the
    /// future at once, withdraws its interest with a cancel vote (a request upstream if
    /// it was the last interest) and resumes it with ``Outcome/cancelled``; other
    /// awaiters are unaffected. A task that is already cancelled votes and returns
    /// without suspending; a completed future returns its outcome even then.
    ///
    /// Exactly-once resumption: the continuation is handed over under the lock, either
    /// to the completion (which takes every callback out of the state) or to the
    /// cancellation handler (which removes the awaiter); the other finds it gone.
    ///
    /// Inlinable so that it is specialized for `Value` in the caller: unspecialized, the
    /// generic metadata lookups it needs were a tenth of the cost of an await.
    @inlinable
    nonisolated(nonsending) func awaitOutcome() async -> Outcome<Value> {
        let awaiter = Awaiter<Value>()
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                if let outcome = withLock({ $0.awaiterArrived(awaiter, continuation: continuation) }) {
                    continuation.resume(returning: outcome)
                }
            }
        } onCancel: {
            switch withLock({ $0.awaiterCancelled(awaiter) }) {
            case .alreadyCompleted:
                break
            case .resume(let continuation, let actions):
                continuation.resume(returning: .cancelled)
                actions?.run()
            case .voted(let actions):
                actions?.run()
            }
        }
    }

    /// Blocks this thread until the future completes (its outcome) or `deadline` passes
    /// (`nil`; the waiter is removed from the future at once).
    func waitForOutcome(until deadline: DispatchTime) -> Outcome<Value>? {
        let waiter = Waiter()
        // Registered directly rather than through `whenComplete`: on a future completed
        // meanwhile, that would queue the wake-up behind the callback this thread may be
        // running, and the wait would never end.
        if let outcome = withLock({ $0.waiterArrived(waiter) }) { return outcome }
        // A deadline already past does not block: on Linux even a wait until now sleeps
        // for the timer slack, some 50 us.
        if deadline > .now(), waiter.semaphore.wait(timeout: deadline) == .success { return outcome }
        // Completed meanwhile: the completion took the waiter and wakes (or woke) it; the
        // semaphore is released with the signal unconsumed, which Dispatch allows.
        return withLock { $0.waiterLeft(waiter) }
    }

    /// Runs `operation` in a new `Task` and completes this future with how it ends; a
    /// cancel request on this future cancels the task.
    ///
    /// The task may start before the cancel handler is registered: it first looks for a
    /// request delivered before then (made before this call, or while the task was being
    /// made) and cancels itself, so that `operation` never sees `Task.isCancelled` false
    /// after a request that came first. A request that comes after that look finds the
    /// handler, or is found by its registration, which then cancels the task at once.
    func completeByRunning(
        priority: TaskPriority?,
        _ operation: sending @escaping @isolated(any) () async throws -> Value
    ) {
        let task = Task(priority: priority) {
            if self.isCancellationRequested { withUnsafeCurrentTask { $0?.cancel() } }
            let outcome: Outcome<Value>
            do {
                outcome = .success(try await operation())
            } catch {
                outcome = Outcome(error: error)
            }
            self.complete(outcome, fromFollowed: true)
        }
        addCancelHandler { task.cancel() }
    }
}

extension Future {
    /// The tasks suspended awaiting this future now, read under its lock (for
    /// FutureBridgeTesting's `waitForAwaiters(count:)`).
    package var awaiterCount: Int { storage.withLock { $0.awaiterCount } }
}
