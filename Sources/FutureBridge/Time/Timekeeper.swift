import Dispatch

/// What FutureBridge's time functions measure and wait with: a monotonic "now" and a way
/// to run a job once a delay has passed.
///
/// The time functions come in two forms that share one implementation:
/// - on macOS 13, iOS 16, tvOS 16 and watchOS 9 and later, a Swift `Clock`
///   (`ContinuousClock()` by default) and a `Duration`:
///   `future.timeout(after: .seconds(5))`;
/// - on every deployment target, a `DispatchTimeInterval` and a timekeeper, usually
///   ``dispatch``: `future.timeout(after: .seconds(5), timekeeper: .dispatch)`.
///
/// Tests pass a manual timekeeper (``init(now:schedule:)``) or a manual clock, so that
/// no test ever sleeps.
public struct Timekeeper: Sendable {
    /// Cancels a scheduled job if it has not run yet; calling it again does nothing.
    public typealias CancelWait = @Sendable () -> Void

    @usableFromInline
    package let now: @Sendable () -> UInt64
    @usableFromInline
    package let schedule: @Sendable (_ nanoseconds: UInt64, _ job: @escaping @Sendable () -> Void) -> CancelWait

    /// A timekeeper made of your own two functions, for example a test's manual time or an
    /// event loop's timers.
    ///
    /// - Parameters:
    ///   - now: The current time in nanoseconds since any fixed origin; it must never
    ///     decrease.
    ///   - schedule: Runs `job` exactly once after `nanoseconds` (on any thread), unless
    ///     the returned function is called first; it must never run `job` synchronously
    ///     inside `schedule` itself unless `nanoseconds` is 0. The returned function should
    ///     release the wait and `job` at once (cancel the timer rather than ignore it
    ///     when it fires): a detached `debounce` or a beaten `timeout` then keeps nothing.
    public init(
        now: @escaping @Sendable () -> UInt64,
        schedule: @escaping @Sendable (_ nanoseconds: UInt64, _ job: @escaping @Sendable () -> Void) -> CancelWait
    ) {
        self.now = now
        self.schedule = schedule
    }

    /// Dispatch timers on the global concurrent queue, and `DispatchTime` uptime: works
    /// on every deployment target. A job scheduled with it runs on that queue.
    public static var dispatch: Timekeeper { dispatch(on: .global()) }

    /// Dispatch timers that run their jobs on `queue`, and `DispatchTime` uptime.
    ///
    /// Each wait is a Dispatch timer source of its own: cancelling a wait (a detached
    /// `debounce`, a future that completed before its `timeout`) cancels its source, which
    /// leaves Dispatch's timers and releases the job at once, so cancelled waits keep no
    /// memory until their deadlines.
    ///
    /// - Parameter queue: Where the timers fire.
    public static func dispatch(on queue: DispatchQueue) -> Timekeeper {
        dispatch(on: queue, timerMade: nil)
    }

    /// ``dispatch(on:)``, handing each timer it makes to `timerMade` (for tests: that a
    /// cancelled wait cancels its timer).
    package static func dispatch(
        on queue: DispatchQueue, timerMade: (@Sendable (DispatchTimer) -> Void)?
    ) -> Timekeeper {
        Timekeeper(
            now: { DispatchTime.now().uptimeNanoseconds },
            schedule: { nanoseconds, job in
                let timer = DispatchTimer(nanoseconds: nanoseconds, queue: queue, job: job)
                timerMade?(timer)
                return { timer.cancel() }
            })
    }

    /// A timekeeper that measures with `clock` and waits in a `Task` sleeping on it;
    /// cancelling a wait cancels that task.
    ///
    /// - Parameter clock: The clock, for example `ContinuousClock()`.
    @available(ClockAPI, *)
    public static func clock<C: Clock<Duration>>(_ clock: C) -> Timekeeper {
        let start = clock.now
        return Timekeeper(
            now: { start.duration(to: clock.now).nanoseconds },
            schedule: { nanoseconds, job in
                let task = Task {
                    do {
                        try await clock.sleep(for: .nanoseconds(Int64(clamping: nanoseconds)))
                    } catch {
                        return
                    }
                    job()
                }
                return { task.cancel() }
            })
    }
}

@available(ClockAPI, *)
extension Duration {
    /// Whole nanoseconds, 0 for a negative duration, `UInt64.max` past what fits.
    @usableFromInline
    package var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
        let (wholeSeconds, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let (total, overflowAgain) = wholeSeconds.addingReportingOverflow(UInt64(max(0, attoseconds / 1_000_000_000)))
        return overflowAgain ? .max : total
    }

    /// The duration of `nanoseconds`, saturating at the largest one a `Duration` of
    /// nanoseconds can hold.
    init(nanoseconds: UInt64) {
        self = .nanoseconds(Int64(clamping: nanoseconds))
    }
}

extension DispatchTimeInterval {
    /// Whole nanoseconds, 0 for a negative interval, `UInt64.max` for `.never`.
    @usableFromInline
    package var nanoseconds: UInt64 {
        func scaled(_ value: Int, by factor: UInt64) -> UInt64 {
            guard value > 0 else { return 0 }
            let (result, overflow) = UInt64(value).multipliedReportingOverflow(by: factor)
            return overflow ? .max : result
        }
        switch self {
        case .seconds(let value): return scaled(value, by: 1_000_000_000)
        case .milliseconds(let value): return scaled(value, by: 1_000_000)
        case .microseconds(let value): return scaled(value, by: 1_000)
        case .nanoseconds(let value): return scaled(value, by: 1)
        case .never: return .max
        @unknown default: return .max
        }
    }

    /// The interval of `nanoseconds`, `.never` past what `Int` holds.
    init(nanoseconds: UInt64) {
        self = nanoseconds > UInt64(Int.max) ? .never : .nanoseconds(Int(nanoseconds))
    }
}
