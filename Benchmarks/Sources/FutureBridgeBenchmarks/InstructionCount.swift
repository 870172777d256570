import AsyncAlgorithms
import Dispatch

/// The benchmark cases that run on one thread at a time, run one at a time for an
/// instruction count.
///
/// Timings on a shared virtual machine move by up to 2x from run to run; instruction
/// counts do not. `count-instructions.sh` runs each case under valgrind's callgrind
/// with `n` and `2n` operations and prints the difference divided by `n`: the
/// instructions of one operation, with start-up and warm-up cancelled out.
enum InstructionCount {
    /// Each benchmark's cases by library; `n` is operations (B1-B3), inputs (B5),
    /// elements (B6, B9, B10) or detaches (B6d, at 1,000 and 100,000 observers). B9's cases run in a task of the concurrency runtime, one
    /// task at a time: the main thread waits for it (``waitFor(_:)``).
    static let cases: [(benchmark: String, library: String, run: @Sendable (Int) -> Void)] = [
        ("B1", "futurebridge", FutureBridgeCases.b1CreateResolveObserve),
        ("B1", "nio-embedded", { NIOCases.onEmbedded($0, NIOCases.b1) }),
        ("B1", "opencombine", OpenCombineCases.b1),
        ("B2", "futurebridge", FutureBridgeCases.b2MapChain),
        ("B2", "nio-embedded", { NIOCases.onEmbedded($0, NIOCases.b2) }),
        ("B2", "opencombine", OpenCombineCases.b2),
        ("B3", "futurebridge", FutureBridgeCases.b3PendingAttachResolve),
        ("B3", "nio-embedded", { NIOCases.onEmbedded($0, NIOCases.b3) }),
        ("B3", "opencombine", OpenCombineCases.b3),
        ("B5", "futurebridge", FutureBridgeCases.b5WhenAll),
        ("B5", "nio-embedded", { NIOCases.onEmbedded($0, NIOCases.b5) }),
        ("B6", "futurebridge", FutureBridgeCases.b6MapFilter),
        ("B6", "opencombine", OpenCombineCases.b6),
        ("B6d-1000", "futurebridge", { FutureBridgeCases.b6dDetach($0, observers: 1_000) }),
        ("B6d-100000", "futurebridge", { FutureBridgeCases.b6dDetach($0, observers: 100_000) }),
        ("B10", "futurebridge", FutureBridgeCases.b10Debounce),
        ("B10", "map", FutureBridgeCases.b10Map),
        ("B9", "futurebridge", { n in waitFor { await AsyncSequenceCases.b9Signal((0..<n).async) } }),
        ("B9", "direct", { n in waitFor { await AsyncSequenceCases.b9Direct((0..<n).async) } }),
    ]

    /// Runs `body` in a task and blocks the calling thread until it returns. The main
    /// thread waits on a semaphore rather than in `dispatchMain()`: valgrind 3.19 crashes
    /// (an internal SIGSEGV) once the main thread has exited into `dispatchMain()`, but
    /// runs the concurrency runtime's threads otherwise.
    static func waitFor(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }

    /// `arguments` is `<benchmark> <library> <n>`, or `--list`. Returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        if arguments == ["--list"] {
            for entry in cases { print(entry.benchmark, entry.library) }
            return 0
        }
        guard arguments.count == 3, let n = Int(arguments[2]), n > 0,
            let entry = cases.first(where: { $0.benchmark == arguments[0] && $0.library == arguments[1] })
        else {
            print("usage: FutureBridgeBenchmarks --count <benchmark> <library> <n> | --count --list")
            return 2
        }
        entry.run(n)
        return 0
    }
}
