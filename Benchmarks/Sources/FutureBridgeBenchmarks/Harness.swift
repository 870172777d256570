import CHeapStats
import Dispatch
import Foundation

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The median and minimum of repeated samples.
struct Timing {
    var median: Double
    var minimum: Double

    /// Both figures multiplied by `factor` (e.g. from "per run" to "per element").
    func scaled(by factor: Double) -> Timing {
        Timing(median: median * factor, minimum: minimum * factor)
    }
}

/// One result row.
struct Measurement {
    var benchmark: String
    var library: String
    /// The median over the repetitions, in `unit`; `nil` when the library lacks the feature.
    var median: Double?
    var minimum: Double?
    var unit: String
}

enum Harness {
    static let repetitions = CommandLine.arguments.contains("--quick") ? 3 : 7

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Runs `body(iterations)` once to warm up, then `repetitions` times, and returns the
    /// median and minimum of nanoseconds per iteration.
    static func perOperation(iterations: Int, _ body: (Int) -> Void) -> Timing {
        body(iterations)
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let start = now()
            body(iterations)
            samples.append(Double(now() - start) / Double(iterations))
        }
        return summarize(samples)
    }

    /// The async variant of ``perOperation(iterations:_:)``.
    static func perOperation(
        iterations: Int, _ body: @Sendable (Int) async -> Void
    ) async -> Timing {
        await body(iterations)
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let start = now()
            await body(iterations)
            samples.append(Double(now() - start) / Double(iterations))
        }
        return summarize(samples)
    }

    /// Two async cases measured in turns, a sample of one, then a sample of the other, so
    /// that a burst of load on the machine falls on both rather than on one of them;
    /// `samples` of each (``repetitions`` by default).
    static func perOperationInTurns(
        iterations: Int, samples count: Int = repetitions, _ first: @Sendable (Int) async -> Void,
        _ second: @Sendable (Int) async -> Void
    ) async -> (Timing, Timing) {
        await first(iterations)
        await second(iterations)
        var samples: ([Double], [Double]) = ([], [])
        for _ in 0..<count {
            var start = now()
            await first(iterations)
            samples.0.append(Double(now() - start) / Double(iterations))
            start = now()
            await second(iterations)
            samples.1.append(Double(now() - start) / Double(iterations))
        }
        return (summarize(samples.0), summarize(samples.1))
    }

    static func summarize(_ samples: [Double]) -> Timing {
        let sorted = samples.sorted()
        return Timing(median: sorted[sorted.count / 2], minimum: sorted[0])
    }

    /// Bytes allocated on the heap right now (glibc's malloc accounting).
    static func heapBytes() -> Int {
        Int(cheapstats_heap_bytes())
    }

    /// The process's resident set in bytes (Linux's /proc/self/statm), or `nil` where
    /// there is none.
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Gives the memory that earlier benchmarks freed back to the system (glibc keeps it
    /// resident otherwise), so that the resident set grows again with what comes next.
    static func releaseFreeMemory() {
        cheapstats_release_free_memory()
    }

    /// Bytes per element that `make` keeps alive, over `count` elements kept in
    /// preallocated storage (so the storage itself is not counted).
    static func bytesPerElement<T>(count: Int, _ make: () -> T, finish: (T) -> Void) -> Double {
        var kept: [T] = []
        kept.reserveCapacity(count)
        let before = heapBytes()
        for _ in 0..<count { kept.append(make()) }
        let after = heapBytes()
        for element in kept { finish(element) }
        return Double(after - before) / Double(count)
    }
}
