import TestSupport
import Testing

@testable import FutureBridge

@Suite struct DiagnosticsTests {
    @Test func descriptionIsOneGreppableLine() {
        let diagnostic = Diagnostic(kind: .completedTwice, message: "ignored", fileID: "App/Client.swift", line: 7)
        #expect(diagnostic.description == "FUTUREBRIDGE MISUSE: completedTwice: ignored (App/Client.swift:7)")
        #expect(!diagnostic.description.contains("\n"))
    }

    @Test func replacedHandlerReceivesReports() {
        RecordedDiagnostics.install()
        let mine = Recorder<Diagnostic>()
        // Other suites run in parallel: keep forwarding to the shared recorder while
        // this handler is installed, then put the recorder back.
        Diagnostics.setHandler { diagnostic in
            mine.append(diagnostic)
            RecordedDiagnostics.record(diagnostic)
        }
        defer { Diagnostics.setHandler { RecordedDiagnostics.record($0) } }
        let line = #line + 1
        _ = Promise<Int>().future
        #expect(mine.all.contains { $0.line == line && $0.kind == .promiseAbandoned })
    }

    /// Reading the handler used to wrap it in two more thunks per report: after some
    /// 50,000 reports, calling it overflowed the stack. A million of each kind now, in one
    /// process, each delivered exactly once.
    @Test func millionReportsOfEachKindAreEachDeliveredOnce() {
        RecordedDiagnostics.install()
        let count = stressIterations(1_000_000, atLeast: 100_000)
        let twiceLine = #line + 2
        for _ in 0..<count {
            let promise = Promise<Int>()
            let resolve: @Sendable (Int) -> Void = promise.resolve
            resolve(1)
            resolve(2)
        }
        let abandonedLine = #line + 1
        for _ in 0..<count { _ = Promise<Int>() }
        #expect(RecordedDiagnostics.count(of: .completedTwice, line: twiceLine) == count)
        #expect(RecordedDiagnostics.count(of: .promiseAbandoned, line: twiceLine) == 0)
        #expect(RecordedDiagnostics.count(of: .promiseAbandoned, line: abandonedLine) == count)
        #expect(RecordedDiagnostics.reports(line: abandonedLine).allSatisfy { $0.kind == .promiseAbandoned })
    }
}
