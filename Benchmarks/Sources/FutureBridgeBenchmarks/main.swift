// FutureBridge side by side with its peers, in one run (release build):
//
//   swift run -c release --package-path Benchmarks FutureBridgeBenchmarks [--tsv] [--quick] [--only B1,B3]
//
// Every benchmark reports the median and the minimum of several repetitions after a
// warm-up. A FutureBridge feature that does not exist yet is printed as missing.
//
//   FutureBridgeBenchmarks --count <benchmark> <library> <n>
//
// runs one synchronous case alone, for valgrind's instruction counts (see
// `Benchmarks/count-instructions.sh` and ``InstructionCount``).
import Dispatch
import NIOCore
import NIOEmbedded

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let scale = quick ? 100 : 1
/// `--only B1,M1` runs just those benchmarks (for profiling).
let only: [String]? = arguments.firstIndex(of: "--only").flatMap { index in
    index + 1 < arguments.count ? arguments[index + 1].split(separator: ",").map(String.init) : nil
}

/// `--library futurebridge` measures just that library (for profiling).
let onlyLibrary: String? = arguments.firstIndex(of: "--library").flatMap { index in
    index + 1 < arguments.count ? arguments[index + 1] : nil
}

/// Every measurement of this run, in order.
@MainActor enum Results {
    static var rows: [Measurement] = []
}

@MainActor func record(
    _ benchmark: String, _ library: String, _ unit: String, _ measure: @autoclosure () async -> Timing?
) async {
    guard onlyLibrary == nil || onlyLibrary == library else { return }
    let result = await measure()
    Results.rows.append(
        Measurement(
            benchmark: benchmark, library: library, median: result?.median, minimum: result?.minimum, unit: unit))
}

let resolver = DispatchQueue(label: "benchmarks.resolver")
let ns = "ns/op"
let b1 = 1_000_000 / scale
let b4 = 100_000 / scale
let b7Awaiters = 10_000 / (quick ? 10 : 1)
let b5Inputs = 10_000 / (quick ? 10 : 1)
let b6 = 1_000_000 / scale
let m1 = 1_000_000 / scale

/// Milliseconds per when-all over `b5Inputs` inputs.
func b5(_ body: @escaping (Int) -> Void) -> Timing {
    Harness.perOperation(iterations: 20) { rounds in for _ in 0..<rounds { body(b5Inputs) } }.scaled(by: 1 / 1_000_000)
}

/// Nanoseconds per element for a run over `b6` elements.
func perElement(_ body: @escaping @Sendable (Int) async -> Void) async -> Timing {
    await Harness.perOperation(iterations: 1) { _ in await body(b6) }.scaled(by: 1 / Double(b6))
}

/// Bytes per kept element, median of three runs.
func bytes<T>(_ make: () -> T, finish: (T) -> Void) -> Timing {
    Harness.summarize((0..<3).map { _ in Harness.bytesPerElement(count: m1, make, finish: finish) })
}

/// One synchronous future benchmark for FutureBridge, NIO on both loops, and OpenCombine.
/// B1: create a promise, resolve it, observe it with one handler. B2: a chain of 10
/// maps on a completed future. B3: create a pending future, attach a handler, resolve.
@MainActor func futureRound(
    _ name: String, unit: String = ns, iterations: Int = b1,
    _ futureBridge: (Int) -> Void, _ nio: @escaping @Sendable (any EventLoop, Int) -> Void,
    _ openCombine: (Int) -> Void
) async {
    await record(name, "futurebridge", unit, Harness.perOperation(iterations: iterations, futureBridge))
    await record(
        name, "nio-embedded", unit, Harness.perOperation(iterations: iterations) { NIOCases.onEmbedded($0, nio) })
    await record(name, "nio-loop", unit, Harness.perOperation(iterations: iterations) { NIOCases.onLoop($0, nio) })
    await record(name, "opencombine", unit, Harness.perOperation(iterations: iterations, openCombine))
}

/// Every benchmark, by name.
@MainActor func allBenchmarks() -> [(name: String, run: @MainActor () async -> Void)] {
    [
        ("B1", { await futureRound("B1", FutureBridgeCases.b1CreateResolveObserve, NIOCases.b1, OpenCombineCases.b1) }),
        (
            "B2",
            {  // a chain of 10 maps on a completed future, observed at the end
                await futureRound(
                    "B2", unit: "ns/chain", iterations: 200_000 / scale, FutureBridgeCases.b2MapChain, NIOCases.b2,
                    OpenCombineCases.b2)
            }
        ),
        ("B3", { await futureRound("B3", FutureBridgeCases.b3PendingAttachResolve, NIOCases.b3, OpenCombineCases.b3) }),
        (
            "B4",
            {  // await from a default-priority task, resumed by a completion on a global queue,
                // next to the raw continuation resumed the same way
                let global = DispatchQueue.global()
                await record(
                    "B4", "futurebridge", ns,
                    await Harness.perOperation(iterations: b4) {
                        await FutureBridgeCases.b4AwaitResolvedElsewhere($0, on: global)
                    })
                await record(
                    "B4", "continuation", ns,
                    await Harness.perOperation(iterations: b4) {
                        await StreamCases.b4UnsafeContinuation($0, on: global)
                    })
                await record(
                    "B4", "continuation", "ns/op(checked)",
                    await Harness.perOperation(iterations: b4) {
                        await StreamCases.b4CheckedContinuation($0, on: global)
                    })
                await record(
                    "B4", "nio-loop", ns, await Harness.perOperation(iterations: b4 / 10) { await NIOCases.b4($0) })
                await record(
                    "B4", "opencombine", ns,
                    await Harness.perOperation(iterations: b4) {
                        await OpenCombineCases.b4($0, on: global)
                    })
            }
        ),
        (
            "B4m",
            {  // await from a main-actor task, resumed by a completion on a serial queue, next to
                // the raw continuation resumed the same way
                await record(
                    "B4m", "futurebridge", ns,
                    await Harness.perOperation(iterations: b4) {
                        await FutureBridgeCases.b4mAwaitOnTheMainActor($0, on: resolver)
                    })
                await record(
                    "B4m", "continuation", ns,
                    await Harness.perOperation(iterations: b4) {
                        await StreamCases.b4mUnsafeContinuationOnTheMainActor($0, on: resolver)
                    })
            }
        ),
        (
            "B7",
            {  // 10,000 tasks of one task group awaiting one future, resumed together, next to
                // 10,000 raw continuations resumed together in the same conditions
                let unit = "ms"
                let rounds = quick ? 2 : 20
                // In turns: the ratio of the two is what counts, and load comes in bursts.
                let (futureBridge, continuation) = await Harness.perOperationInTurns(
                    iterations: rounds,
                    { rounds in for _ in 0..<rounds { await AwaitCases.b7FutureBridge(b7Awaiters) } },
                    { rounds in for _ in 0..<rounds { await AwaitCases.b7Continuation(b7Awaiters) } })
                await record("B7", "futurebridge", unit, futureBridge.scaled(by: 1 / 1_000_000))
                await record("B7", "continuation", unit, continuation.scaled(by: 1 / 1_000_000))
            }
        ),
        (
            "B11",
            {  // a callback API awaited through the form the migration assistant writes, next
                // to the careful hand-written form, in turns (the ratio is what counts)
                let (migrated, byHand) = await Harness.perOperationInTurns(
                    iterations: b4, MigratedFormCases.b11Migrated, MigratedFormCases.b11ByHand)
                await record("B11", "futurebridge", ns, migrated)
                await record("B11", "hand-written", ns, byHand)
            }
        ),
        (
            "B5",
            {  // when-all over 10,000 pending futures resolved afterwards
                await record("B5", "futurebridge", "ms", b5(FutureBridgeCases.b5WhenAll))
                await record("B5", "nio-embedded", "ms", b5 { NIOCases.onEmbedded($0, NIOCases.b5) })
                await record("B5", "nio-loop", "ms", b5 { NIOCases.onLoop($0, NIOCases.b5) })
            }
        ),
        (
            "B6",
            {  // 1,000,000 Ints through map + filter to one observer
                let unit = "ns/element"
                await record("B6", "futurebridge", unit, await perElement { FutureBridgeCases.b6MapFilter($0) })
                await record("B6", "opencombine", unit, await perElement { OpenCombineCases.b6($0) })
                await record("B6", "asyncstream", unit, await perElement { await StreamCases.b6AsyncStream($0) })
                await record(
                    "B6", "asyncchannel", unit,
                    await perElement { await StreamCases.b6AsyncChannel($0 / 10) }.scaled(by: 10))
            }
        ),
        (
            "B8",
            {  // 1,000,000 Ints sent into a stream by a producer and consumed with for await by
                // another task: the producer ahead (a task sending as fast as it can), then in
                // step (a task sending each value once the consumer has taken the one before)
                typealias Case = @Sendable (Int, _ inStep: Bool) async -> Void
                let cases: [(String, Case)] = [
                    ("futurebridge", AsyncSequenceCases.b8Signal),
                    ("asyncstream", AsyncSequenceCases.b8AsyncStream),
                    ("asyncthrowingstream", AsyncSequenceCases.b8AsyncThrowingStream),
                ]
                // A value in step costs two thread wake-ups: a tenth of the values, as for
                // AsyncChannel, whose producer is always in step.
                for (unit, inStep, share) in [("ns/element", false, 1), ("ns/element(in step)", true, 10)] {
                    for (library, run) in cases {
                        await record(
                            "B8", library, unit,
                            await perElement { await run($0 / share, inStep) }.scaled(by: Double(share)))
                    }
                    await record(
                        "B8", "asyncchannel", unit,
                        await perElement { await AsyncSequenceCases.b8AsyncChannel($0 / 10) }.scaled(by: 10))
                }
            }
        ),
        (
            "B9",
            {  // a 1,000,000-element AsyncSequence through Signal(sequence) to one observer, in
                // turns with iterating it directly (the ratio is what counts): a range made
                // asynchronous (the cheapest sequence there is), and an AsyncStream that a
                // producer task fills
                // The range in 21 samples of each (20 ms a sample): the minimums, which a burst of
                // load cannot lower, give the ratio the README reports.
                typealias Run = @Sendable () async -> Void
                let sequences: [(unit: String, samples: Int, signal: Run, direct: Run)] = [
                    (
                        "ns/element(range)", 21, { await AsyncSequenceCases.b9Signal((0..<b6).async) },
                        { await AsyncSequenceCases.b9Direct((0..<b6).async) }
                    ),
                    (
                        "ns/element(AsyncStream)", Harness.repetitions,
                        { await AsyncSequenceCases.b9Signal(AsyncSequenceCases.fedStream(b6)) },
                        { await AsyncSequenceCases.b9Direct(AsyncSequenceCases.fedStream(b6)) }
                    ),
                ]
                for (unit, samples, signal, direct) in sequences {
                    let (throughSignal, directly) = await Harness.perOperationInTurns(
                        iterations: 1, samples: quick ? 3 : samples, { _ in await signal() }, { _ in await direct() })
                    await record("B9", "futurebridge", unit, throughSignal.scaled(by: 1 / Double(b6)))
                    await record("B9", "direct", unit, directly.scaled(by: 1 / Double(b6)))
                }
            }
        ),
        (
            "B10",
            {  // 1,000,000 Ints through debounce with a timekeeper that never fires (each value
                // resets the timer), next to the same values through map
                let unit = "ns/element"
                await record("B10", "futurebridge", unit, await perElement { FutureBridgeCases.b10Debounce($0) })
                await record("B10", "map", unit, await perElement { FutureBridgeCases.b10Map($0) })
            }
        ),
        (
            "M1",
            {  // bytes per pending future with one handler, 1,000,000 kept alive
                await record(
                    "M1", "futurebridge", "bytes", bytes(FutureBridgeCases.m1PendingWithOneHandler) { $0.succeed(0) })
                let loop = EmbeddedEventLoop()
                await record("M1", "nio-embedded", "bytes", bytes({ NIOCases.m1(on: loop) }) { $0.succeed(0) })
                await record(
                    "M1", "opencombine", "bytes", bytes({ OpenCombineCases.Kept() }) { $0.resolve?(.success(0)) })
            }
        ),
        (
            "M2",
            {  // resident memory of 1,000,000 live pending futures with one handler each (and of
                // the array that keeps their promises, 8 MB), measured as the growth of the
                // process's resident set while they are alive
                let count = m1
                func keep<T>(_ make: () -> T, finish: (T) -> Void) -> Timing? {
                    Harness.releaseFreeMemory()
                    guard let before = Harness.residentBytes() else { return nil }
                    var kept: [T] = []
                    kept.reserveCapacity(count)
                    for _ in 0..<count { kept.append(make()) }
                    let after = Harness.residentBytes() ?? before
                    for element in kept { finish(element) }
                    let megabytes = Double(after - before) / 1_000_000
                    return Timing(median: megabytes, minimum: megabytes)
                }
                await record(
                    "M2", "futurebridge", "MB", keep(FutureBridgeCases.m1PendingWithOneHandler) { $0.succeed(0) })
                let loop = EmbeddedEventLoop()
                await record("M2", "nio-embedded", "MB", keep({ NIOCases.m1(on: loop) }) { $0.succeed(0) })
            }
        ),
        (
            "S1",
            {  // B1, B3 and B5 at growing sizes: the cost per operation should stay flat
                for size in quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000, 10_000_000] {
                    let name = "S1-\(size)"
                    let cases: [(unit: String, futureBridge: (Int) -> Void, nio: (Int) -> Void)] = [
                        (
                            "ns/op(B1)", FutureBridgeCases.b1CreateResolveObserve,
                            { NIOCases.onEmbedded($0, NIOCases.b1) }
                        ),
                        (
                            "ns/op(B3)", FutureBridgeCases.b3PendingAttachResolve,
                            { NIOCases.onEmbedded($0, NIOCases.b3) }
                        ),
                    ]
                    for (unit, futureBridge, nio) in cases {
                        await record(name, "futurebridge", unit, Harness.perOperation(iterations: size, futureBridge))
                        await record(name, "nio-embedded", unit, Harness.perOperation(iterations: size, nio))
                    }
                    // B5 joins `size` inputs once: its time is per input.
                    let whenAll: [(library: String, run: (Int) -> Void)] = [
                        ("futurebridge", FutureBridgeCases.b5WhenAll),
                        ("nio-embedded", { NIOCases.onEmbedded($0, NIOCases.b5) }),
                    ]
                    for (library, run) in whenAll {
                        let timing = Harness.perOperation(iterations: 1) { _ in run(size) }
                        await record(name, library, "ns/input(B5)", timing.scaled(by: 1 / Double(size)))
                    }
                }
            }
        ),
    ]
}

/// Runs the selected benchmarks and prints the report.
@MainActor func runBenchmarks() async {
    for benchmark in allBenchmarks() where only.map({ $0.contains(benchmark.name) }) ?? true {
        await benchmark.run()
    }
    try? await NIOCases.group.shutdownGracefully()

    if arguments.contains("--tsv") {
        Report.tsv(Results.rows)
    } else {
        Report.table(Results.rows)
    }
}

// The top level stays synchronous until `--count` has run: valgrind cannot run a process
// whose main thread has gone into `dispatchMain()` (B9's counted cases wait on a semaphore).
if let index = arguments.firstIndex(of: "--count") {
    exit(InstructionCount.run(Array(arguments[(index + 1)...])))
}
Task { @MainActor in
    await runBenchmarks()
    exit(0)
}
dispatchMain()
