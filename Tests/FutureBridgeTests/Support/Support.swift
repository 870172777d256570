import Foundation
import FutureBridgeInternals
import TestSupport
import Testing

@testable import FutureBridge

/// Every diagnostic reported while the tests run, by the site it names. The handler is
/// installed once and never removed: tests run in parallel, so each test looks for the
/// reports that name its own creation site. Per site it counts every report and keeps
/// the first few, so that a stress test may report a million times.
enum RecordedDiagnostics {
    private struct Site: Hashable {
        var fileID: String
        var line: Int
    }

    private struct Reports {
        var kept: [Diagnostic] = []
        var counts: [Diagnostic.Kind: Int] = [:]
    }

    /// Reports kept per site; the counts go on past it.
    static let keptPerSite = 100
    private static let sites = Locked([Site: Reports]())
    private static let installed: Void = Diagnostics.setHandler { record($0) }

    static func install() { _ = installed }

    static func record(_ diagnostic: Diagnostic) {
        sites.withLock { sites in
            let site = Site(fileID: diagnostic.fileID, line: diagnostic.line)
            var reports = sites.removeValue(forKey: site) ?? Reports()
            if reports.kept.count < keptPerSite { reports.kept.append(diagnostic) }
            reports.counts[diagnostic.kind, default: 0] += 1
            sites[site] = reports
        }
    }

    /// The first ``keptPerSite`` reports that name `fileID:line`.
    static func reports(fileID: String = #fileID, line: Int) -> [Diagnostic] {
        sites.withLock { $0[Site(fileID: fileID, line: line)]?.kept ?? [] }
    }

    /// How many reports of `kind` named `fileID:line`.
    static func count(of kind: Diagnostic.Kind, fileID: String = #fileID, line: Int) -> Int {
        sites.withLock { $0[Site(fileID: fileID, line: line)]?.counts[kind] ?? 0 }
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
    /// Interests currently held (0 once completed).
    var interestCount: Int {
        storage.withLock { state in
            state.isCompleted ? 0 : Int(state.interests)
        }
    }

    /// Callbacks registered now, awaiting tasks and waiting threads included (0 once
    /// completed).
    var registeredCallbackCount: Int {
        storage.withLock { $0.registeredCallbackCount }
    }
}

/// A promise that records the cancel requests it receives and, unless told not to,
/// honours them by completing as cancelled.
final class CancellablePromise<Value: Sendable>: Sendable {
    let promise = Promise<Value>()
    let requests = Counter()

    init(honour: Bool = true) {
        promise.onCancellationRequest { [requests] promise in
            requests.increment()
            if honour { promise.cancel() }
        }
    }

    var future: Future<Value> { promise.future }
}
