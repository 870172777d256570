import Foundation
import Testing

@testable import FutureBridge

/// Iteration counts for stress tests: the full count normally; divided by
/// `FUTUREBRIDGE_STRESS_DIVISOR` (set by `.ci/run` for the sanitizer runs), but never
/// below `minimum`. Race tests pass 100,000: ThreadSanitizer was measured here to miss
/// a real race at 1,000 iterations and to catch it every time at 100,000.
func stressIterations(_ full: Int, atLeast minimum: Int = 1) -> Int {
    let divisor = ProcessInfo.processInfo.environment["FUTUREBRIDGE_STRESS_DIVISOR"].flatMap(Int.init) ?? 1
    return min(full, max(minimum, full / max(1, divisor)))
}

/// A thread-safe counter for tests.
final class Counter: Sendable {
    private let value = Locked(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// A thread-safe list for tests.
final class Recorder<Element: Sendable>: Sendable {
    private let elements = Locked<[Element]>([])
    func append(_ element: Element) { elements.withLock { $0.append(element) } }
    var all: [Element] { elements.withLock { $0 } }
}

/// Every diagnostic reported while the tests run. The handler is installed once and
/// never removed: tests run in parallel, so each test looks for the reports that name
/// its own creation site.
enum RecordedDiagnostics {
    static let all = Recorder<Diagnostic>()
    private static let installed: Void = Diagnostics.setHandler { all.append($0) }

    static func install() { _ = installed }

    static func reports(fileID: String = #fileID, line: Int) -> [Diagnostic] {
        all.all.filter { $0.fileID == fileID && $0.line == line }
    }
}

struct TestError: Error, Equatable {
    var code = 1
}

extension Outcome {
    /// Compares outcomes in tests: values by `==`, failures by their description.
    func matches(_ other: Outcome) -> Bool where Value: Equatable {
        switch (self, other) {
        case (.success(let a), .success(let b)): a == b
        case (.failure(let a), .failure(let b)): "\(a)" == "\(b)"
        case (.cancelled, .cancelled): true
        default: false
        }
    }
}

extension Future {
    /// Interests currently held (0 once completed), to let tests wait until awaiting
    /// tasks have registered, without sleeping.
    var interestCount: Int {
        storage.withLock { state in
            if case .pending(let pending) = state { pending.interests } else { 0 }
        }
    }

    /// Suspends (yielding, never sleeping) until `count` interests are held.
    func waitForInterests(_ count: Int) async {
        while interestCount < count { await Task.yield() }
    }
}

/// A promise that records the cancel requests it receives and, unless told not to,
/// honours them by completing as cancelled.
final class CancellablePromise<Value: Sendable>: Sendable {
    let promise = Promise<Value>()
    let requests = Counter()

    init(honour: Bool = true) {
        promise.onCancelRequest { [requests] promise in
            requests.increment()
            if honour { promise.cancel() }
        }
    }

    var future: Future<Value> { promise.future }
}
