import Dispatch

extension Future {
    /// Blocks the calling thread until the future completes or `timeout` passes
    /// (Alice's `wait`), for synchronous code such as a command-line `main` or a test.
    ///
    /// - Important: Deadlock hazard. Never wait on the thread or serial queue that must
    ///   complete the future, or that runs a closure the future depends on (for example
    ///   waiting on the main thread for work scheduled `on: .main`): the wait then runs
    ///   out its whole timeout. Inline callbacks already queued on the waiting thread are
    ///   run before it blocks, so waiting from inside a callback for work queued behind
    ///   it does complete. From `async` code use ``value`` instead; this method is
    ///   unavailable there.
    ///
    /// Waiting does not request cancellation, and a timeout leaves the future untouched.
    ///
    /// - Parameter timeout: How long to wait at most.
    /// - Returns: The value.
    /// - Throws: The future's error, `CancellationError` if it was cancelled, or
    ///   ``TimeoutError`` if `timeout` passed first.
    @available(*, noasync, message: "blocks a thread; use 'try await future.value' in async code")
    public func wait(timeout: Duration) throws -> Value {
        if let outcome = storage.outcome { return try outcome.get() }
        Trampoline.runPendingWork()
        guard let outcome = storage.waitForOutcome(until: .now() + timeout.dispatchInterval) else {
            throw TimeoutError(timeout: timeout)
        }
        return try outcome.get()
    }
}

extension Duration {
    /// The duration as whole nanoseconds for Dispatch, clamped to what it can express.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return .never }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
