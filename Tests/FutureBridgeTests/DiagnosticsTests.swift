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
            RecordedDiagnostics.all.append(diagnostic)
        }
        defer { Diagnostics.setHandler { RecordedDiagnostics.all.append($0) } }
        let line = #line + 1
        _ = Promise<Int>().future
        #expect(mine.all.contains { $0.line == line && $0.kind == .promiseAbandoned })
    }
}
