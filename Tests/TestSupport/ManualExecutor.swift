import FutureBridge

/// An executor that runs nothing until the test says so, so tests decide exactly when
/// handlers run.
public final class ManualExecutor: Sendable {
    private let jobs = Locked<[@Sendable () -> Void]>([])

    public init() {}

    public var context: ExecutionContext {
        .custom { job in self.jobs.withLock { $0.append(job) } }
    }

    public var pendingCount: Int { jobs.withLock { $0.count } }

    /// Runs queued jobs (and jobs they queue) until none is left; returns how many ran.
    @discardableResult
    public func runAll() -> Int {
        var ran = 0
        while true {
            let batch = jobs.withLock { jobs in
                defer { jobs.removeAll() }
                return jobs
            }
            if batch.isEmpty { return ran }
            for job in batch { job() }
            ran += batch.count
        }
    }
}
