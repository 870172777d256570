import Foundation

/// A thread of its own that runs what it is given, one item at a time, in order: the
/// executor of the gate's task, and the "queue" on which its callback API completes.
///
/// The gate counts the allocations of every thread, so the threads a workload involves
/// must allocate the same every time. A dispatch queue and the global executor do not:
/// libdispatch keeps per-thread caches of its job records, which a job fills on the
/// thread that frees it and empties on the one that allocates, and the global executor
/// runs a task on whichever worker thread is free (an early version of the gate counted 5
/// to 9 allocations per operation from run to run). This thread is always the same one,
/// and holds what it is given in a ring allocated once, under one lock: it allocates
/// nothing per item, so what is counted is the workload's own.
///
/// One thread may run its items only while another is idle (``init(name:whenIdle:)``): a
/// promise completed on it is then always completed after the awaiting task has
/// suspended, as a callback API's answer comes, never before (which would take a shorter
/// path, at random).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class WorkerThread: TaskExecutor, @unchecked Sendable {  // the ring's fields only under `condition`
    private enum Item {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private let condition = NSCondition()
    /// A ring of a fixed size: a job is never queued behind more than a few others here.
    private var items: [Item?] = Array(repeating: nil, count: 64)
    private var first = 0
    private var queued = 0
    private var running = false
    /// The thread that must be idle before an item runs here.
    private let other: WorkerThread?

    /// A thread named `name`, started at once; it runs each item once `other` is idle.
    init(name: String, whenIdle other: WorkerThread? = nil) {
        self.other = other
        let thread = Thread { [self] in runItems() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        put(.job(UnownedJob(job)))
    }

    /// Runs `body` on this thread, after what was given before it.
    func async(_ body: @escaping @Sendable () -> Void) {
        put(.closure(body))
    }

    /// Returns once everything given so far has run.
    func waitUntilIdle() {
        condition.lock()
        while queued > 0 || running { condition.wait() }
        condition.unlock()
    }

    private func put(_ item: Item) {
        condition.lock()
        precondition(queued < items.count, "more items queued than the ring holds")
        items[(first + queued) % items.count] = item
        queued += 1
        condition.broadcast()
        condition.unlock()
    }

    private func runItems() {
        condition.lock()
        while true {
            while queued == 0 {
                running = false
                condition.broadcast()
                condition.wait()
            }
            let item = items[first].take()
            first = (first + 1) % items.count
            queued -= 1
            running = true
            condition.unlock()
            other?.waitUntilIdle()
            switch item {
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .closure(let body): body()
            case nil: break
            }
            condition.lock()
        }
    }
}
