import Dispatch
import FutureBridgeInternals

/// One job of ``Timekeeper/dispatch(on:)``, on a Dispatch timer source of its own.
///
/// Cancelling cancels the source, which takes it out of Dispatch's timers at once, and
/// releases the job and what it captures. (`asyncAfter` cannot be cancelled: its block
/// stays scheduled, some 500 bytes with what it holds, until its deadline, so a cancelled
/// one-hour wait kept its memory for an hour.) A timer that fires cancels its source too,
/// then runs the job; the job runs at most once, whichever comes first.
///
/// The source's handler holds the timer until the source is cancelled, which ends it
/// either way; the timer holds the source.
// @unchecked Sendable: `job` is reached only under its lock, and `source` is a constant
// reference to a Dispatch source, which may be cancelled and tested from any thread
// (`dispatch_source_cancel`, `dispatch_source_testcancel`); the Linux overlay lacks the
// `Sendable` mark.
package final class DispatchTimer: @unchecked Sendable {
    /// The job, until the timer fires or is cancelled.
    private let job: Locked<(@Sendable () -> Void)?>
    private let source: DispatchSourceTimer

    /// Schedules `job` on `queue` once `nanoseconds` have passed.
    init(nanoseconds: UInt64, queue: DispatchQueue, job: @escaping @Sendable () -> Void) {
        self.job = Locked(job)
        source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler { [self] in fire() }
        source.schedule(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)))
        source.activate()
    }

    private func fire() {
        let job = self.job.withLock { $0.take() }
        source.cancel()
        job?()
    }

    /// Cancels the wait if the job has not run: the source leaves Dispatch's timers and
    /// the job is released. Calling it again does nothing.
    package func cancel() {
        let job = self.job.withLock { $0.take() }
        source.cancel()
        withExtendedLifetime(job) {}  // released here, after unlocking
    }

    /// Whether the source is cancelled: the timer fired or was cancelled (for tests).
    package var isCancelled: Bool {
        source.isCancelled
    }
}
