import Foundation
import TestSupport
import Testing

@testable import FutureBridge

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
            state.isCompleted ? 0 : Int(state.interests)
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
