import Dispatch

/// Time: delays, timeouts. Each function comes in two forms with one implementation
/// (see ``Timekeeper``): a `Duration` measured on a `Clock` (macOS 13, iOS 16, tvOS 16,
/// watchOS 9), and a `DispatchTimeInterval` measured by a ``Timekeeper`` (every
/// deployment target).
///
/// A cancel request on a waiting future ends the wait at once and cancels the timer, so
/// nothing keeps waiting for a future nobody wants.
extension Future where Value == Void {
    /// A future that succeeds once `delay` has passed on `clock` (PromiseKit's `after`).
    ///
    /// A cancel request ends the wait at once: the future is cancelled. The future
    /// completes in the task that sleeps on `clock`.
    ///
    /// ```swift
    /// Future.after(.seconds(2)).onSuccess { print("two seconds later") }   // macOS 13, iOS 16
    /// ```
    ///
    /// - Parameters:
    ///   - delay: How long to wait.
    ///   - clock: The clock to measure with; `ContinuousClock()` by default.
    /// - Returns: A future that succeeds after `delay`.
    @available(ClockAPI, *)
    public static func after<C: Clock<Duration>>(_ delay: Duration, clock: C = ContinuousClock()) -> Future {
        after(nanoseconds: delay.nanoseconds, timekeeper: .clock(clock))
    }

    /// A future that succeeds once `delay` has passed, measured by `timekeeper`; the form
    /// for every deployment target.
    ///
    /// A cancel request ends the wait at once: the future is cancelled. The future
    /// completes where `timekeeper` runs its jobs (for ``Timekeeper/dispatch``, the
    /// global queue).
    ///
    /// ```swift
    /// Future.after(.seconds(2), timekeeper: .dispatch).onSuccess { print("two seconds later") }
    /// ```
    ///
    /// - Parameters:
    ///   - delay: How long to wait.
    ///   - timekeeper: What waits; ``Timekeeper/dispatch`` for Dispatch timers.
    /// - Returns: A future that succeeds after `delay`.
    public static func after(_ delay: DispatchTimeInterval, timekeeper: Timekeeper) -> Future {
        after(nanoseconds: delay.nanoseconds, timekeeper: timekeeper)
    }

    /// The one implementation of both forms.
    static func after(nanoseconds: UInt64, timekeeper: Timekeeper) -> Future {
        let storage = FutureStorage<Void>.pending()
        let cancelWait = timekeeper.schedule(nanoseconds) { storage.complete(.success(())) }
        storage.addCancelHandler {
            cancelWait()
            storage.complete(.cancelled)
        }
        return Future(storage: storage)
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
    @available(ClockAPI, *)
    public func delay<C: Clock<Duration>>(_ delay: Duration, clock: C = ContinuousClock()) -> Future {
        self.delay(nanoseconds: delay.nanoseconds, timekeeper: .clock(clock))
    }

    /// A future that succeeds with this future's value once `delay` has passed after
    /// this future succeeded, measured by `timekeeper`; the form for every deployment
    /// target. A failure or a cancellation passes through at once.
    ///
    /// A cancel request travels to this future while it is pending, then ends the wait
    /// (the future is cancelled).
    ///
    /// - Parameters:
    ///   - delay: How long to hold the value back.
    ///   - timekeeper: What waits; ``Timekeeper/dispatch`` for Dispatch timers.
    /// - Returns: The delayed future.
    public func delay(_ delay: DispatchTimeInterval, timekeeper: Timekeeper) -> Future {
        self.delay(nanoseconds: delay.nanoseconds, timekeeper: timekeeper)
    }

    func delay(nanoseconds: UInt64, timekeeper: Timekeeper) -> Future {
        flatMap { value in Future<Void>.after(nanoseconds: nanoseconds, timekeeper: timekeeper).map { value } }
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
    @available(ClockAPI, *)
    public func timeout<C: Clock<Duration>>(after duration: Duration, clock: C = ContinuousClock()) -> Future {
        timeout(nanoseconds: duration.nanoseconds, timekeeper: .clock(clock))
    }

    /// A future that completes like this one, or fails with ``TimeoutError`` if this one
    /// has not completed within `interval`, measured by `timekeeper`; the form for every
    /// deployment target. This one then gets a cancel request (unless another consumer
    /// still holds an interest in it).
    ///
    /// If this future completes first, the timer is cancelled. A cancel request on the
    /// returned future travels to this one (the timer keeps running: if the producer
    /// ignores the request, the timeout still ends the wait).
    ///
    /// - Parameters:
    ///   - interval: How long to wait at most.
    ///   - timekeeper: What waits; ``Timekeeper/dispatch`` for Dispatch timers.
    /// - Returns: A future with this future's outcome or a ``TimeoutError``.
    public func timeout(after interval: DispatchTimeInterval, timekeeper: Timekeeper) -> Future {
        timeout(nanoseconds: interval.nanoseconds, timekeeper: timekeeper)
    }

    func timeout(nanoseconds: UInt64, timekeeper: Timekeeper) -> Future {
        let combination = Combination<Value>(inputs: [storage.box])
        let timer = Future<Void>.after(nanoseconds: nanoseconds, timekeeper: timekeeper)
        timer.onSuccess { combination.complete(.failure(TimeoutError(nanoseconds: nanoseconds))) }
        storage.whenComplete { outcome in
            combination.complete(outcome)
            timer.requestCancellation()
        }
        return Future(storage: combination.output, defaultContext: defaultContext)
    }
}
