import Foundation

/// How long ``retry(attempts:delay:clock:if:on:_:)`` waits before each new attempt.
public struct RetryDelay: Sendable {
    /// The wait before retry number `retry` (1 for the second attempt).
    let delayBeforeRetry: @Sendable (_ retry: Int) -> Duration

    /// Retries at once.
    public static let none = RetryDelay { _ in .zero }

    /// Waits `delay` before every retry.
    ///
    /// - Parameter delay: The wait.
    public static func constant(_ delay: Duration) -> RetryDelay {
        RetryDelay { _ in delay }
    }

    /// Waits `initial` before the first retry, multiplied by `multiplier` for each
    /// further one, never more than `maximum` (exponential backoff).
    ///
    /// - Parameters:
    ///   - initial: The wait before the first retry.
    ///   - multiplier: The factor between consecutive waits; 2 by default.
    ///   - maximum: The longest wait.
    public static func exponential(
        initial: Duration, multiplier: Double = 2, maximum: Duration = .seconds(60)
    ) -> RetryDelay {
        RetryDelay { retry in
            let (seconds, attoseconds) = initial.components
            let nanoseconds =
                (Double(seconds) * 1e9 + Double(attoseconds) * 1e-9) * pow(multiplier, Double(max(0, retry - 1)))
            // Whole nanoseconds, so that 100 ms x 3 is exactly 300 ms.
            guard nanoseconds.isFinite, nanoseconds < 1e18 else { return maximum }
            return min(.nanoseconds(Int64(nanoseconds.rounded())), maximum)
        }
    }

    /// Waits what `delay` returns for each retry number (1 for the second attempt).
    ///
    /// - Parameter delay: The wait before a retry.
    public static func custom(_ delay: @escaping @Sendable (_ retry: Int) -> Duration) -> RetryDelay {
        RetryDelay(delayBeforeRetry: delay)
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
/// ```swift
/// let page = retry(attempts: 4, delay: .exponential(initial: .milliseconds(200))) { fetch(url) }
/// ```
///
/// - Parameters:
///   - attempts: How many times to run `operation` at most (at least once).
///   - delay: The wait before each retry; ``RetryDelay/none`` by default.
///   - clock: The clock to measure the waits with; `ContinuousClock()` by default.
///   - shouldRetry: Whether a failure is worth another attempt; always by default.
///     Cancellations are never retried. Runs where the failed attempt completed.
///   - context: Where `operation` runs; ``ExecutionContext/inline`` by default.
///   - operation: Starts one attempt.
/// - Returns: A future of the first successful attempt's value.
public func retry<Value: Sendable, C: Clock<Duration>>(
    attempts: Int,
    delay: RetryDelay = .none,
    clock: C = ContinuousClock(),
    if shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
    on context: ExecutionContext = .inline,
    _ operation: @escaping @Sendable () -> Future<Value>
) -> Future<Value> {
    let output = FutureStorage<Value>.pending()
    let inProgress = InProgress()
    output.addCancelHandler { inProgress.requestCancel() }

    @Sendable func attempt(_ number: Int) {
        context.execute { run(number) }
    }

    @Sendable func run(_ number: Int) {
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
            let wait = delay.delayBeforeRetry(number)
            guard wait > .zero else { return attempt(number + 1) }
            let timer = Future<Void>.after(wait, clock: clock)
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
        var isCancelRequested = false
    }
    private let state = Locked(State())

    /// Holds an interest in `future` as the current step; `false` (and a withdrawn
    /// interest) if a cancel request already arrived.
    func track<Value>(_ future: Future<Value>) -> Bool {
        let token = future.cancellationToken()
        let isCancelRequested = state.withLock { state in
            state.current = token
            return state.isCancelRequested
        }
        if isCancelRequested { token.cancel() }
        return !isCancelRequested
    }

    func requestCancel() {
        state.withLock { state in
            state.isCancelRequested = true
            return state.current
        }?.cancel()
    }
}
