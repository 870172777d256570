// The allocation gate: heap allocations per operation of fixed workloads, each checked
// against its budget (release build):
//
//   swift run -c release --package-path Benchmarks FutureBridgeAllocations
//
// Exits 1 when a count differs from its budget: above it, the change added an allocation
// to every operation; below it, the change saved one, and the budget is lowered in the
// same change. The budgets are the counts of the code they were measured on.
import CMallocCounter
import Dispatch
import Foundation
import FutureBridge
import Reactive

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One fixed workload and the allocations one of its operations may make.
struct Workload: Sendable {
    let name: String
    /// Allocations per operation: today's count.
    let budget: Int
    /// Runs `n` operations and returns once every thread it involved has finished them.
    let run: @Sendable (Int) async -> Void
}

/// The sum of the values a handler saw: only the signal's serialized delivery touches it.
final class Sum: @unchecked Sendable {
    var total = 0
}

/// A timekeeper whose time stands still and which never runs what it schedules: every
/// value that reaches `debounce` resets its timer, none goes out.
let neverFiring = Timekeeper(now: { 0 }, schedule: { _, _ in {} })

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The workloads, and the threads that run them.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
enum Gate {
    /// The thread that runs the gate's task.
    static let taskThread = WorkerThread(name: "allocations.task")
    /// The thread that completes the promises of the workloads that involve another
    /// thread, as a callback API's queue would: once the task has suspended to await them.
    static let completionThread = WorkerThread(name: "allocations.completion", whenIdle: taskThread)

    static let workloads: [Workload] = [
        Workload(name: "future created, resolved, observed", budget: 1) { n in
            for index in 0..<n {
                let promise = Promise<Int>()
                promise.succeed(index)
                promise.future.onSuccess { blackHole($0) }
            }
        },
        Workload(name: "pending future, one handler, resolved", budget: 1) { n in
            for index in 0..<n {
                let promise = Promise<Int>()
                promise.future.onSuccess { blackHole($0) }
                promise.succeed(index)
            }
        },
        Workload(name: "future awaited, resolved on another thread", budget: 5) { n in
            for index in 0..<n {
                let promise = Promise<Int>()
                completionThread.async { promise.succeed(index) }
                blackHole(try? await promise.future.value)
            }
            completionThread.waitUntilIdle()  // its last item has returned too
        },
        Workload(name: "withPromise, completed on another thread", budget: 5) { n in
            for index in 0..<n {
                let value = try? await withPromise(of: Int.self) { promise in
                    completionThread.async { promise.succeed(index) }
                }
                blackHole(value)
            }
            completionThread.waitUntilIdle()
        },
        Workload(name: "Signal value through map and filter", budget: 0) { n in
            let (signal, input) = Signal<Int>.pipe()
            let sum = Sum()
            let observation = signal.map { $0 &* 2 }.filter { $0 % 3 != 0 }.observeValues { sum.total &+= $0 }
            for value in 0..<n { input.send(value) }
            blackHole(sum.total)
            observation.detach()
        },
        Workload(name: "values(): producer ahead", budget: 0) { n in
            // Every value is sent before the loop takes the first one.
            let (signal, input) = Signal<Int>.pipe()
            let values = signal.values()
            for value in 0..<n { input.send(value) }
            input.sendCompleted()
            var sum = 0
            do {
                for try await value in values { sum &+= value }
            } catch {}
            blackHole(sum)
        },
        Workload(name: "values(): producer in step", budget: 1) { n in
            // The loop waits for each value; the producer, on another thread, sends it once
            // the loop has suspended, as a producer in step with its consumer does.
            let (signal, input) = Signal<Int>.pipe()
            var iterator = signal.values().makeAsyncIterator()
            var sum = 0
            for value in 0..<n {
                completionThread.async { input.send(value) }
                sum &+= (try? await iterator.next()) ?? 0
            }
            blackHole(sum)
            completionThread.waitUntilIdle()
        },
        Workload(name: "Signal value through debounce", budget: 0) { n in
            let (signal, input) = Signal<Int>.pipe()
            let sum = Sum()
            let observation = signal.debounce(for: .milliseconds(300), timekeeper: neverFiring).observeValues {
                sum.total &+= $0
            }
            for value in 0..<n { input.send(value) }
            blackHole(sum.total)
            observation.detach()
        },
    ]
}

/// Allocations made while `body` runs, on every thread (the workload waits for the
/// threads it involves before it returns).
func allocations(_ body: () async -> Void) async -> Int {
    let before = malloc_counter_allocations()
    await body()
    return malloc_counter_allocations() - before
}

/// Allocations per operation of `workload`: after a warm-up (the runtime's lazily made
/// metadata, the ring buffers' growth), the workload runs with `n` and with `2n`
/// operations; the difference, over `n`, is one operation, with what a run makes once
/// (its signal, its observer) cancelled out. Every thread involved is a ``WorkerThread``,
/// so the difference is a multiple of `n`; `exact` shows it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func perOperation(_ workload: Workload, n: Int) async -> (count: Int, exact: Double) {
    await workload.run(n / 10)
    let once = await allocations { await workload.run(n) }
    let twice = await allocations { await workload.run(2 * n) }
    let exact = Double(twice - once) / Double(n)
    return (Int(exact.rounded()), exact)
}

/// Measures every workload and prints a row for each; 1 if a count is not its budget.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func runGate() async -> Int32 {
    let n = CommandLine.arguments.contains("--quick") ? 1_000 : 10_000
    var failed = false
    print("workload" + String(repeating: " ", count: 37) + "allocations/op  (measured)  budget")
    for workload in Gate.workloads {
        let (count, exact) = await perOperation(workload, n: n)
        let verdict: String
        if count > workload.budget {
            verdict = "FAIL: above the budget"
            failed = true
        } else if count < workload.budget {
            verdict = "FAIL: below the budget, lower it to \(count)"
            failed = true
        } else {
            verdict = "ok"
        }
        let name = workload.name.padding(toLength: 44, withPad: " ", startingAt: 0)
        let measured = String(format: "%.3f", exact).leftPadded(to: 10)
        print("\(name) \(String(count).leftPadded(to: 14))  \(measured)  \(workload.budget)  \(verdict)")
    }
    return failed ? 1 : 0
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}

// The gate's task runs on a thread of its own while the main thread waits.
guard malloc_counter_is_active() else {
    print("Allocations are counted with glibc's allocator only: nothing checked here.")
    exit(0)
}
guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { exit(0) }
let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var status: Int32 = 0
Task.detached(executorPreference: Gate.taskThread) {
    status = await runGate()
    done.signal()
}
done.wait()
exit(status)
