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
    @available(ClockAPI, *)
    public func wait(timeout: Duration) throws -> Value {
        let nanoseconds = timeout.nanoseconds
        return try wait(until: .now() + DispatchTimeInterval(nanoseconds: nanoseconds), reporting: nanoseconds)
    }

    /// Blocks the calling thread until the future completes or `deadline` passes; the
    /// form for every deployment target. The same rules as ``wait(timeout:)`` apply,
    /// deadlock hazard included.
    ///
    /// ```swift
    /// func readConfig(_ config: Future<String>) throws -> String {   // synchronous code only
    ///     try config.wait(deadline: .now() + .seconds(5))
    /// }
    /// ```
    ///
    /// - Parameter deadline: When to give up.
    /// - Returns: The value.
    /// - Throws: The future's error, `CancellationError` if it was cancelled, or
    ///   ``TimeoutError`` (with the time from the call to `deadline`) if `deadline`
    ///   passed first.
    @available(*, noasync, message: "blocks a thread; use 'try await future.value' in async code")
    public func wait(deadline: DispatchTime) throws -> Value {
        let start = DispatchTime.now().uptimeNanoseconds
        let end = deadline.uptimeNanoseconds
        return try wait(until: deadline, reporting: end > start ? end - start : 0)
    }

    /// The one implementation of both forms; `waited` is what a ``TimeoutError`` reports.
    private func wait(until deadline: DispatchTime, reporting waited: UInt64) throws -> Value {
        if let outcome = storage.outcome { return try outcome.get() }
        Trampoline.runPendingWork()
        guard let outcome = storage.waitForOutcome(until: deadline) else {
            throw TimeoutError(nanoseconds: waited)
        }
        return try outcome.get()
    }
}
