/// One task suspended on a future. Its fields are guarded by the future's lock.
// @unchecked Sendable: both stored properties are read and written only inside
// `FutureStorage.withLock` of the one future the awaiter belongs to.
@usableFromInline
final class Awaiter<Value: Sendable>: @unchecked Sendable {
    @usableFromInline
    var continuation: UnsafeContinuation<Outcome<Value>, Never>?
    /// The awaiting task was cancelled (possibly before it registered).
    @usableFromInline
    var isCancelled = false

    @inlinable
    init() {}
}

extension FutureStorage {
    /// Suspends until the future completes or the awaiting task is cancelled.
    ///
    /// While suspended the task holds an interest. Task cancellation withdraws it with a
    /// cancel vote (a request upstream if it was the last interest) and resumes the task
    /// with ``Outcome/cancelled`` at once; other awaiters are unaffected. A task that is
    /// already cancelled votes and returns without suspending.
    ///
    /// Exactly-once resumption: the continuation is stored and taken only under the
    /// lock, by whichever comes first of the completion callback and the cancellation
    /// handler; the other finds it gone.
    ///
    /// Inlinable so that it is specialized for `Value` in the caller: unspecialized, the
    /// generic metadata lookups it needs were a tenth of the cost of an await.
    @inlinable
    nonisolated(nonsending) func awaitOutcome() async -> Outcome<Value> {
        let awaiter = Awaiter<Value>()
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                // Made before taking the lock: the completing thread may be waiting for it.
                let callback: OutcomeCallback<Value> = { outcome in self.resume(awaiter, with: outcome) }
                let immediate: Outcome<Value>? = withLock { state in
                    if let outcome = state.outcome { return outcome }
                    if awaiter.isCancelled { return .cancelled }
                    awaiter.continuation = continuation
                    state.interestAdded()
                    _ = state.addCallback(.outcome(callback))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            self.cancel(awaiter)
        }
    }

    @inlinable
    func resume(_ awaiter: Awaiter<Value>, with outcome: Outcome<Value>) {
        let continuation = withLock { _ in
            defer { awaiter.continuation = nil }
            return awaiter.continuation
        }
        continuation?.resume(returning: outcome)
    }

    @inlinable
    func cancel(_ awaiter: Awaiter<Value>) {
        let continuation: UnsafeContinuation<Outcome<Value>, Never>?
        let actions: CancelActions?
        (continuation, actions) = withLock { state in
            // Completed: the completion callback resumes (or resumed) the task.
            guard state.outcome == nil else { return (nil, nil) }
            awaiter.isCancelled = true
            guard let continuation = awaiter.continuation else {
                // Not registered yet: vote as a consumer without an interest.
                return (nil, state.cancelRequested())
            }
            awaiter.continuation = nil
            return (continuation, state.interestWithdrawn(cancelling: true))
        }
        continuation?.resume(returning: .cancelled)
        actions?.run()
    }

    /// Runs `operation` in a new `Task` and completes this future with how it ends; a
    /// cancel request on this future cancels the task.
    func completeByRunning(
        priority: TaskPriority?,
        _ operation: sending @escaping @isolated(any) () async throws -> Value
    ) {
        let task = Task(priority: priority) {
            let outcome: Outcome<Value>
            do {
                outcome = .success(try await operation())
            } catch {
                outcome = Outcome(error: error)
            }
            self.complete(outcome, fromBinding: true)
        }
        addCancelHandler { task.cancel() }
    }
}
