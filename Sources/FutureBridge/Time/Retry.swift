import Foundation
import FutureBridgeInternals

/// How long ``retry(attempts:delay:clock:if:on:_:)`` and
/// ``retry(attempts:delay:timekeeper:if:on:_:)-(_,_,_,_,ExecutionContext,_)`` wait before each new attempt.
///
/// Each kind of delay comes as a `Duration` (macOS 13, iOS 16, tvOS 16, watchOS 9) and as
/// a `DispatchTimeInterval` (every deployment target), with the same meaning.
public struct RetryDelay: Sendable {
    /// The wait before retry number `retry` (1 for the second attempt), in nanoseconds.
    let nanosecondsBeforeRetry: @Sendable (_ retry: Int) -> UInt64

    /// Retries at once.
    public static let none = RetryDelay { _ in 0 }

    /// Waits `delay` before every retry.
    ///
    /// - Parameter delay: The wait.
    @available(ClockAPI, *)
    public static func constant(_ delay: Duration) -> RetryDelay {
        constant(nanoseconds: delay.nanoseconds)
    }

    /// Waits `interval` before every retry.
    ///
    /// - Parameter interval: The wait.
    public static func constant(interval: DispatchTimeInterval) -> RetryDelay {
        constant(nanoseconds: interval.nanoseconds)
    }

    static func constant(nanoseconds: UInt64) -> RetryDelay {
        RetryDelay { _ in nanoseconds }
    }

    /// Waits `initial` before the first retry, multiplied by `multiplier` for each
    /// further one, never more than `maximum` (exponential backoff).
    ///
    /// - Parameters:
    ///   - initial: The wait before the first retry.
    ///   - multiplier: The factor between consecutive waits; 2 by default.
    ///   - maximum: The longest wait.
    @available(ClockAPI, *)
    public static func exponential(
        initial: Duration, multiplier: Double = 2, maximum: Duration = .seconds(60)
    ) -> RetryDelay {
        exponential(initialNanoseconds: initial.nanoseconds, multiplier: multiplier, maximum: maximum.nanoseconds)
    }

    /// Waits `initialInterval` before the first retry, multiplied by `multiplier` for
    /// each further one, never more than `maximumInterval` (exponential backoff).
    ///
    /// - Parameters:
    ///   - initialInterval: The wait before the first retry.
    ///   - multiplier: The factor between consecutive waits; 2 by default.
    ///   - maximumInterval: The longest wait; a minute by default.
    public static func exponential(
        initialInterval: DispatchTimeInterval, multiplier: Double = 2,
        maximumInterval: DispatchTimeInterval = .seconds(60)
    ) -> RetryDelay {
        exponential(
            initialNanoseconds: initialInterval.nanoseconds, multiplier: multiplier,
            maximum: maximumInterval.nanoseconds)
    }

    static func exponential(initialNanoseconds initial: UInt64, multiplier: Double, maximum: UInt64) -> RetryDelay {
        RetryDelay { retry in
            let nanoseconds = Double(initial) * pow(multiplier, Double(max(0, retry - 1)))
            // Whole nanoseconds, so that 100 ms x 3 is exactly 300 ms.
            guard nanoseconds.isFinite, nanoseconds < Double(maximum) else { return maximum }
            return UInt64(max(0, nanoseconds.rounded()))
        }
    }

    /// Waits what `delay` returns for each retry number (1 for the second attempt).
    ///
    /// - Parameter delay: The wait before a retry; runs where the failed attempt ended.
    @available(ClockAPI, *)
    public static func custom(_ delay: @escaping @Sendable (_ retry: Int) -> Duration) -> RetryDelay {
        RetryDelay { retry in delay(retry).nanoseconds }
    }

    /// Waits what `interval` returns for each retry number (1 for the second attempt).
    ///
    /// - Parameter interval: The wait before a retry; runs where the failed attempt ended.
    public static func custom(intervals interval: @escaping @Sendable (_ retry: Int) -> DispatchTimeInterval)
        -> RetryDelay
    {
        RetryDelay { retry in interval(retry).nanoseconds }
    }
}

/// Runs `operation` until its future succeeds, at most `attempts` times, waiting
/// `delay` on `clock` between attempts, and only while `shouldRetry` accepts the error.
///
/// The result completes like the last attempt: its value, its failure once attempts are
/// used up or `shouldRetry` refuses, or a cancellation. `operation` runs on `context`;
/// with ``ExecutionContext/inline``, on the thread that ends the previous attempt or
/// wait (the first time, on the calling thread).
///
/// A cancel request travels to the attempt in progress, or ends the wait between two
/// attempts (the result is then cancelled); no attempt starts after a request.
///
/// <!-- fragment: app -->
/// ```swift
/// // A Duration measured on a Clock: macOS 13, iOS 16, tvOS 16, watchOS 9
/// let page = retry(attempts: 4, delay: .exponential(initial: .milliseconds(200)), clock: .continuous) {
///     fetch(url)
/// }
/// ```
///
/// - Parameters:
///   - attempts: How many times to run `operation` at most (at least once).
///   - delay: The wait before each retry; ``RetryDelay/none`` by default.
///   - clock: The clock to measure the waits with (without one,
///     ``retry(attempts:delay:timekeeper:if:on:_:)-(_,_,_,_,ExecutionContext,_)`` waits with Dispatch timers).
///   - shouldRetry: Whether a failure is worth another attempt; always by default.
///     Cancellations are never retried. Runs where the failed attempt completed.
///   - context: Where `operation` runs; ``ExecutionContext/inline`` by default.
///   - operation: Starts one attempt.
/// - Returns: A future of the first successful attempt's value.
@available(ClockAPI, *)
public func retry<Value: Sendable, C: Clock<Duration>>(
    attempts: Int,
    delay: RetryDelay = .none,
    clock: C,
    if shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
    on context: ExecutionContext = .inline,
    _ operation: @escaping @Sendable () -> Future<Value>
) -> Future<Value> {
    retry(attempts: attempts, delay: delay, timekeeper: .clock(clock), if: shouldRetry, on: context, operation)
}

/// Runs `operation` until its future succeeds, at most `attempts` times, waiting
/// `delay` between attempts as measured by `timekeeper`, and only while `shouldRetry`
/// accepts the error; the form for every deployment target.
///
/// Behaves exactly as ``retry(attempts:delay:clock:if:on:_:)``: the result completes like
/// the last attempt; a cancel request travels to the attempt in progress, or ends the wait
/// between two attempts; `operation` runs on `context` (with ``ExecutionContext/inline``,
/// on the thread that ends the previous attempt or wait, the first time on the calling
/// thread).
///
/// <!-- fragment: app -->
/// ```swift
/// let page = retry(attempts: 4, delay: .exponential(initialInterval: .milliseconds(200)), timekeeper: .dispatch) {
///     fetch(url)
/// }
/// ```
///
/// - Parameters:
///   - attempts: How many times to run `operation` at most (at least once).
///   - delay: The wait before each retry; ``RetryDelay/none`` by default.
///   - timekeeper: What measures the waits; ``Timekeeper/dispatch`` (Dispatch timers on the
///     global queue) by default.
///   - shouldRetry: Whether a failure is worth another attempt; always by default.
///     Cancellations are never retried. Runs where the failed attempt completed.
///   - context: Where `operation` runs; ``ExecutionContext/inline`` by default.
///   - operation: Starts one attempt.
/// - Returns: A future of the first successful attempt's value.
@_disfavoredOverload
public func retry<Value: Sendable>(
    attempts: Int,
    delay: RetryDelay = .none,
    timekeeper: Timekeeper = .dispatch,
    if shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
    on context: ExecutionContext = .inline,
    _ operation: @escaping @Sendable () -> Future<Value>
) -> Future<Value> {
    let output = FutureStorage<Value>.pending()
    let inProgress = InProgress()
    output.addCancelHandler { inProgress.requestCancellation() }

    @Sendable func attempt(_ number: Int) {
        context.execute { run(number) }
    }

    @Sendable func run(_ number: Int) {
        // Checked before `operation` runs, under the lock a request takes: a request that
        // arrived (the previous attempt failed, or the wait ended, as it came) starts
        // nothing; one that arrives after the check travels to the attempt `track` holds.
        guard inProgress.attemptMayStart() else {
            output.complete(.cancelled)
            return
        }
        let current = operation()
        guard inProgress.track(current) else {
            output.complete(.cancelled)
            return
        }
        current.storage.whenComplete { outcome in
            guard case .failure(let error) = outcome, number < attempts, shouldRetry(error) else {
                output.complete(outcome)
                return
            }
            let wait = delay.nanosecondsBeforeRetry(number)
            guard wait > 0 else { return attempt(number + 1) }
            let timer = Future<Void>.after(nanoseconds: wait, timekeeper: timekeeper)
            guard inProgress.track(timer) else {
                output.complete(.cancelled)
                return
            }
            timer.onComplete { outcome in
                if outcome.isCancelled { output.complete(.cancelled) } else { attempt(number + 1) }
            }
        }
    }

    attempt(1)
    return Future(storage: output)
}

/// The attempt or wait a ``retry(attempts:delay:clock:if:on:_:)`` is in, so that a cancel
/// request reaches it.
private final class InProgress: Sendable {
    private struct State {
        var current: CancellationToken?
        var isCancellationRequested = false
    }
    private let state = Locked(State())

    /// Holds an interest in `future` as the current step; `false` (and a withdrawn
    /// interest) if a cancel request already arrived.
    func track<Value>(_ future: Future<Value>) -> Bool {
        let token = future.cancellationToken()
        let isCancellationRequested = state.withLock { state in
            state.current = token
            return state.isCancellationRequested
        }
        if isCancellationRequested { token.cancel() }
        return !isCancellationRequested
    }

    /// Whether a new attempt may start: `false` once a cancel request has arrived. A
    /// request that arrives after this returns `true` reaches the attempt through
    /// ``track(_:)``.
    func attemptMayStart() -> Bool {
        state.withLock { !$0.isCancellationRequested }
    }

    func requestCancellation() {
        state.withLock { state in
            state.isCancellationRequested = true
            return state.current
        }?.cancel()
    }
}
