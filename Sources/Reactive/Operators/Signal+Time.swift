import Dispatch
import FutureBridge

/// Time: values held back by a timer. Each operator comes in two forms with one
/// implementation, like FutureBridge's time functions (see `Timekeeper`): a `Duration`
/// measured on a `Clock` (macOS 13, iOS 16, tvOS 16, watchOS 9), and a
/// `DispatchTimeInterval` measured by a `Timekeeper` (every deployment target). Tests
/// drive either with FutureBridgeTesting's `ManualClock`, without sleeping.
extension Signal {
    // MARK: debounce

    /// The values followed by a pause: each value is held back until `interval` has
    /// passed without a new one, then sent; a new value replaces the held one and starts
    /// the wait again.
    ///
    /// <!-- fragment: app -->
    /// ```swift
    /// let queries = searchField.text.debounce(for: .milliseconds(300))   // macOS 13, iOS 16
    /// ```
    ///
    /// When this signal completes, the held value, if any, is sent at once, then the
    /// completion (Combine's `debounce` drops it; RxSwift's sends it, as here). A failure
    /// or an interruption is sent at once, and the held value is dropped: it never goes
    /// out.
    ///
    /// Executors and isolation: the operator runs no code of yours. A value the wait
    /// releases is sent from the task that sleeps on `clock`; a value sent because this
    /// signal completed, and the terminal events, from the thread delivering this
    /// signal's events. Observers get the events one at a time, in order, on the executors
    /// they were attached with.
    ///
    /// Cancellation: when the returned signal ends (a terminal event, or its last observer
    /// detached), it detaches from this signal (stopping this signal's source if that was
    /// its last observer), cancels the wait and drops the held value: no timer stays
    /// scheduled and nothing is kept.
    ///
    /// - Parameters:
    ///   - interval: How long a value waits for a successor before it is sent.
    ///   - clock: The clock to measure with; `ContinuousClock()` by default.
    /// - Returns: A signal of the values that `interval` passed after.
    @available(ClockAPI, *)
    @inlinable
    public func debounce<C: Clock<Duration>>(for interval: Duration, clock: C = ContinuousClock()) -> Signal {
        holdingBack(.debounce, for: interval.nanoseconds, timekeeper: .clock(clock))
    }

    /// The values followed by a pause, measured by `timekeeper`: the form of
    /// ``debounce(for:clock:)`` for every deployment target, with the same semantics.
    /// Each value is held back until `interval` has passed without a new one, then sent;
    /// a new value replaces the held one and starts the wait again.
    ///
    /// <!-- fragment: app -->
    /// ```swift
    /// let queries = searchField.text.debounce(for: .milliseconds(300), timekeeper: .dispatch)
    /// ```
    ///
    /// When this signal completes, the held value, if any, is sent at once, then the
    /// completion. A failure or an interruption is sent at once, and the held value is
    /// dropped: it never goes out.
    ///
    /// Executors and isolation: the operator runs no code of yours. A value the wait
    /// releases is sent from where `timekeeper` runs its jobs (for `Timekeeper.dispatch`,
    /// the global queue; for a `ManualClock`'s timekeeper, the thread that moves the
    /// clock); a value sent because this signal completed, and the terminal events, from
    /// the thread delivering this signal's events. Observers get the events one at a time,
    /// in order, on the executors they were attached with.
    ///
    /// Cancellation: when the returned signal ends (a terminal event, or its last observer
    /// detached), it detaches from this signal (stopping this signal's source if that was
    /// its last observer), cancels the wait and drops the held value: no timer stays
    /// scheduled and nothing is kept.
    ///
    /// - Parameters:
    ///   - interval: How long a value waits for a successor before it is sent.
    ///   - timekeeper: What waits; `Timekeeper.dispatch` for Dispatch timers.
    /// - Returns: A signal of the values that `interval` passed after.
    @inlinable
    public func debounce(for interval: DispatchTimeInterval, timekeeper: Timekeeper) -> Signal {
        holdingBack(.debounce, for: interval.nanoseconds, timekeeper: timekeeper)
    }

    // MARK: throttle

    /// At most one value per `interval`: the first or the latest value of each window.
    ///
    /// A value that comes when none went out in the last `interval` is sent at once and
    /// opens a window of `interval`. The values that come during the window wait: when it
    /// ends, the latest of them (`latest: true`) or the first (`latest: false`) is sent,
    /// and that opens the next window. A window during which nothing came ends quietly;
    /// the next value then goes out at once. So a steady stream gives one value at once
    /// and then one per `interval`.
    ///
    /// <!-- fragment: app -->
    /// ```swift
    /// let shown = photoIDs.throttle(for: .seconds(1), latest: true)   // macOS 13, iOS 16
    /// ```
    ///
    /// These are the semantics of Combine's `throttle(for:scheduler:latest:)`, but for two
    /// points. Combine hands a value that opens a window to its scheduler, so values that
    /// come before the scheduler runs it can replace it (`latest: true`); here it is sent
    /// at once, like every value a signal operator passes on. And Combine holds a
    /// completion or a failure back until the window ends; here terminal events go out at
    /// once: a completion sends the waiting value, if any, then completes (so that value
    /// may follow the previous one by less than `interval`), and a failure or an
    /// interruption drops it.
    ///
    /// Executors and isolation: the operator runs no code of yours. A value that opens a
    /// window, a value sent because this signal completed, and the terminal events are
    /// sent from the thread delivering this signal's events; a value that waited for the
    /// end of its window, from the task that sleeps on `clock`. Observers get the events
    /// one at a time, in order, on the executors they were attached with.
    ///
    /// Cancellation: when the returned signal ends (a terminal event, or its last observer
    /// detached), it detaches from this signal (stopping this signal's source if that was
    /// its last observer), cancels the window's timer and drops the waiting value: no
    /// timer stays scheduled and nothing is kept.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two values sent (but for a value sent on
    ///     completion).
    ///   - latest: Whether the value sent at the end of a window is the latest that came
    ///     during it (`true`) or the first (`false`).
    ///   - clock: The clock to measure with; `ContinuousClock()` by default.
    /// - Returns: A signal of at most one value per `interval`.
    @available(ClockAPI, *)
    @inlinable
    public func throttle<C: Clock<Duration>>(
        for interval: Duration, latest: Bool, clock: C = ContinuousClock()
    ) -> Signal {
        holdingBack(.throttle(latest: latest), for: interval.nanoseconds, timekeeper: .clock(clock))
    }

    /// At most one value per `interval`, measured by `timekeeper`: the form of
    /// ``throttle(for:latest:clock:)`` for every deployment target, with the same
    /// semantics (Combine's, but for the two points that page states).
    ///
    /// A value that comes when none went out in the last `interval` is sent at once and
    /// opens a window of `interval`. The values that come during the window wait: when it
    /// ends, the latest of them (`latest: true`) or the first (`latest: false`) is sent,
    /// and that opens the next window. A window during which nothing came ends quietly;
    /// the next value then goes out at once. Terminal events go out at once: a completion
    /// sends the waiting value, if any, then completes; a failure or an interruption
    /// drops it.
    ///
    /// <!-- fragment: app -->
    /// ```swift
    /// let shown = photoIDs.throttle(for: .seconds(1), latest: true, timekeeper: .dispatch)
    /// ```
    ///
    /// Executors and isolation: the operator runs no code of yours. A value that opens a
    /// window, a value sent because this signal completed, and the terminal events are
    /// sent from the thread delivering this signal's events; a value that waited for the
    /// end of its window, from where `timekeeper` runs its jobs (for `Timekeeper.dispatch`,
    /// the global queue; for a `ManualClock`'s timekeeper, the thread that moves the
    /// clock). Observers get the events one at a time, in order, on the executors they
    /// were attached with.
    ///
    /// Cancellation: when the returned signal ends (a terminal event, or its last observer
    /// detached), it detaches from this signal (stopping this signal's source if that was
    /// its last observer), cancels the window's timer and drops the waiting value: no
    /// timer stays scheduled and nothing is kept.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two values sent (but for a value sent on
    ///     completion).
    ///   - latest: Whether the value sent at the end of a window is the latest that came
    ///     during it (`true`) or the first (`false`).
    ///   - timekeeper: What measures the windows; `Timekeeper.dispatch` for Dispatch timers.
    /// - Returns: A signal of at most one value per `interval`.
    @inlinable
    public func throttle(for interval: DispatchTimeInterval, latest: Bool, timekeeper: Timekeeper) -> Signal {
        holdingBack(.throttle(latest: latest), for: interval.nanoseconds, timekeeper: timekeeper)
    }

    // MARK: The one implementation

    /// A signal of this one's values, held back by timers of `interval` on `timekeeper`
    /// as `rule` says: the one implementation of both forms of both operators.
    @inlinable
    func holdingBack(
        _ rule: TimeOperatorStorage<Value>.Machine.Rule, for nanoseconds: UInt64,
        timekeeper: Timekeeper
    ) -> Signal {
        Signal { input in
            let storage = TimeOperatorStorage(rule, nanoseconds: nanoseconds, timekeeper: timekeeper, input: input)
            let observation = self.observe { event in storage.receive(event) }
            return {
                observation.detach()
                storage.stop()
            }
        }
    }
}
