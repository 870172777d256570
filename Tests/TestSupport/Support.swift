import Foundation
import FutureBridge
import FutureBridgeInternals
import Testing

/// Iteration counts for stress tests: a tenth of `full` (never below `minimum`) unless
/// `FUTUREBRIDGE_STRESS_DIVISOR` says otherwise; `FUTUREBRIDGE_STRESS_DIVISOR=1` runs the
/// full count.
///
/// `swift test` runs every test at once, on as many threads as the machine has cores (two
/// here). A stress test that hands values or rounds from one thread to another takes its
/// count times the time the scheduler needs to give the other thread a core, and with the
/// rest of the suite on the same cores that time is long: at full size such tests ran out
/// of their time limits. So the suite runs a tenth, which still proves what each test
/// checks, and `.ci/run` runs the full counts in a step of their own, one test at a time
/// (`FUTUREBRIDGE_STRESS_DIVISOR=1 swift test --no-parallel`), and under the sanitizers
/// with a divisor of 10. Race tests pass 100,000 with a minimum of 10,000:
/// ThreadSanitizer was measured here to miss a real race at 1,000 iterations and to catch
/// it every time at 100,000.
public func stressIterations(_ full: Int, atLeast minimum: Int = 1) -> Int {
    min(full, max(minimum, full / max(1, stressDivisor)))
}

/// `FUTUREBRIDGE_STRESS_DIVISOR`, or 10.
private let stressDivisor =
    ProcessInfo.processInfo.environment["FUTUREBRIDGE_STRESS_DIVISOR"].flatMap(Int.init) ?? 10

/// Whether the running test's task was cancelled, which is what a `.timeLimit` trait does
/// when the limit trips: then records an issue that says so and how far the test got, so
/// that the test stops there instead of checking counts of work that never ran (a
/// cancelled `for await` loop ends early, a cancelled wait returns at once).
///
/// - Parameter progress: How far the test got, for the message ("812 of 2,000 rounds").
public func stoppedByItsTimeLimit(
    after progress: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard Task.isCancelled else { return false }
    Issue.record(
        "The test was cancelled (its time limit tripped) after \(progress()); its counts are not checked",
        sourceLocation: sourceLocation)
    return true
}

/// A thread-safe counter for tests.
public final class Counter: Sendable {
    private let value = Locked(0)
    public init() {}
    public func increment() { value.withLock { $0 += 1 } }
    public var count: Int { value.withLock { $0 } }
}

/// A thread-safe list for tests.
public final class Recorder<Element: Sendable>: Sendable {
    private let elements = Locked<[Element]>([])
    public init() {}
    public func append(_ element: Element) { elements.withLock { $0.append(element) } }
    public var all: [Element] { elements.withLock { $0 } }
}

/// The error tests throw.
public struct TestError: Error, Equatable {
    public var code = 1
    public init(code: Int = 1) { self.code = code }
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it: the
/// 512 KiB of Apple's secondary threads, for tests that must not grow the stack per link.
public func runOnThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0, "bad stack size \(stackSize)")
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let error = pthread_create(
        &thread, &attributes,
        { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
    precondition(error == 0, "pthread_create failed: \(error)")
    pthread_join(thread, nil)
}

/// The stack of Apple's secondary threads.
public let secondaryThreadStackSize = 512 * 1_024

/// The names of `object`'s stored properties in declaration order, its root class's
/// first: tests check that a lock or atomic word is the first (what
/// `firstStoredProperty(of:)` requires).
public func storedPropertyLabels(of object: AnyObject) -> [String] {
    var mirrors: [Mirror] = []
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
        mirrors.append(current)
        mirror = current.superclassMirror
    }
    return mirrors.reversed().flatMap { $0.children.compactMap(\.label) }
}

/// Runs `body` on a thread of its own, off the caller's task, and returns once it has
/// returned.
///
/// The thread is not one of the global queue's (as many as the machine has cores, shared
/// with every test that runs at once): a round trip through it costs a thread wake-up, not
/// a wait for a test on another thread to finish its work.
public func onAnotherThread(_ body: @escaping @Sendable () -> Void) async {
    // `resume()` reads the continuation's context, which lives in the caller's async
    // frame. If it runs before the task has suspended, the task goes on by itself, and on
    // that path the runtime makes no acquire that ThreadSanitizer sees (it does for a task
    // that suspended and is enqueued), so the caller's next async call, which reuses that
    // frame memory, was reported as racing with the read. Resuming under a lock (pthread
    // based, which ThreadSanitizer models) that the caller then takes once makes all the
    // caller does next happen after the resume.
    let order = NSLock()
    await withUnsafeContinuation { (done: UnsafeContinuation<Void, Never>) in
        startOnAnotherThread {
            body()
            order.withLock { done.resume() }
        }
    }
    order.withLock {}
}

/// Starts `body` on a thread of its own and returns at once: a serial queue of its own,
/// which Dispatch runs on a thread it adds when its global threads are busy (unlike
/// `DispatchQueue.global()`, whose threads are shared by every test that runs at once).
public func startOnAnotherThread(_ body: @escaping @Sendable () -> Void) {
    DispatchQueue(label: "TestSupport.anotherThread").async(execute: body)
}

/// Busy for about `steps` times a few nanoseconds: a pause that differs from round to
/// round in race tests, so that one thread's action lands at every point of another's.
@inline(never)
public func spin(_ steps: Int) {
    var state = UInt64(truncatingIfNeeded: steps)
    for _ in 0..<steps * 2 { state = state &* 6_364_136_223_846_793_005 &+ 1 }
    spinSink.withLock { $0 ^= state }
}

private let spinSink = Locked<UInt64>(0)
