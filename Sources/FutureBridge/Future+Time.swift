/// Time, on Swift's `Clock`: every function takes the clock to measure with
/// (`ContinuousClock` by default), so tests can pass a manual one.
///
/// Waiting is done by a `Task` sleeping on the clock; a cancel request cancels that
/// task, so nothing keeps sleeping for a future nobody wants.
extension Future where Value == Void {
    /// A future that succeeds once `delay` has passed on `clock` (PromiseKit's `after`).
    ///
    /// A cancel request ends the wait at once: the future is cancelled.
    ///
    /// ```swift
    /// Future.after(.seconds(2)).onSuccess(on: .main) { hideToast() }
    /// ```
    ///
    /// - Parameters:
    ///   - delay: How long to wait.
    ///   - clock: The clock to measure with; `ContinuousClock()` by default.
    /// - Returns: A future that succeeds after `delay`.
    public static func after<C: Clock<Duration>>(_ delay: Duration, clock: C = ContinuousClock()) -> Future {
        Future { () async throws in try await clock.sleep(for: delay) }
    }
}

extension Future {
    /// A future that succeeds with this future's value once `delay` has passed after
    /// this future succeeded. A failure or a cancellation passes through at once.
    ///
    /// A cancel request travels to this future while it is pending, then ends the wait
    /// (the future is cancelled).
    ///
    /// - Parameters:
    ///   - delay: How long to hold the value back.
    ///   - clock: The clock to measure with; `ContinuousClock()` by default.
    /// - Returns: The delayed future.
    public func delay<C: Clock<Duration>>(_ delay: Duration, clock: C = ContinuousClock()) -> Future {
        flatMap { value in Future<Void>.after(delay, clock: clock).map { value } }
    }

    /// A future that completes like this one, or fails with ``TimeoutError`` if this one
    /// has not completed within `duration` on `clock`; this one then gets a cancel
    /// request (unless another consumer still holds an interest in it).
    ///
    /// If this future completes first, the timer is cancelled. A cancel request on the
    /// returned future travels to this one (the timer keeps running: if the producer
    /// ignores the request, the timeout still ends the wait).
    ///
    /// - Parameters:
    ///   - duration: How long to wait at most.
    ///   - clock: The clock to measure with; `ContinuousClock()` by default.
    /// - Returns: A future with this future's outcome or a ``TimeoutError``.
    public func timeout<C: Clock<Duration>>(after duration: Duration, clock: C = ContinuousClock()) -> Future {
        let combination = Combination<Value>(inputs: [storage.box])
        let timer = Future<Void>.after(duration, clock: clock)
        timer.onSuccess { combination.complete(.failure(TimeoutError(timeout: duration))) }
        storage.whenComplete { outcome in
            combination.complete(outcome)
            timer.cancel()
        }
        return Future(storage: combination.output, defaultContext: defaultContext)
    }
}
