import Foundation
import FutureBridge
import FutureBridgeInternals

/// Iteration counts for stress tests: the full count normally; divided by
/// `FUTUREBRIDGE_STRESS_DIVISOR` when it is set (`.ci/run` sets it for the sanitizer
/// runs), else by 10 in a process built with ThreadSanitizer or AddressSanitizer (so
/// that `swift test --sanitize=thread` as written passes: at full size the stress tests
/// starve the cooperative pool there and run out of their time limits), but never below
/// `minimum`. Race tests pass 100,000 with a minimum of 10,000: ThreadSanitizer was
/// measured here to miss a real race at 1,000 iterations and to catch it every time at
/// 100,000.
public func stressIterations(_ full: Int, atLeast minimum: Int = 1) -> Int {
    let divisor =
        ProcessInfo.processInfo.environment["FUTUREBRIDGE_STRESS_DIVISOR"].flatMap(Int.init)
        ?? (isSanitized ? 10 : 1)
    return min(full, max(minimum, full / max(1, divisor)))
}

/// Whether a sanitizer's runtime is in this process (`swift build --sanitize=thread` or
/// `address`): its entry point is then a symbol the dynamic linker finds.
private let isSanitized = ["__tsan_init", "__asan_init"].contains { (name: String) in
    dlsym(defaultSymbolScope, name) != nil
}

/// `RTLD_DEFAULT`: look a symbol up in every object the process loaded (the C macro
/// does not reach Swift on every platform).
private var defaultSymbolScope: UnsafeMutableRawPointer? {
    #if canImport(Darwin)
        UnsafeMutableRawPointer(bitPattern: -2)
    #else
        nil
    #endif
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

/// Runs `body` on a thread of the global queue, off the caller's task, and returns once
/// it has returned.
public func onAnotherThread(_ body: @escaping @Sendable () -> Void) async {
    await withUnsafeContinuation { (done: UnsafeContinuation<Void, Never>) in
        DispatchQueue.global().async {
            body()
            done.resume()
        }
    }
}
