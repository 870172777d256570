import Dispatch
import FutureBridge
import FutureBridgeTesting
import TestSupport
import Testing

/// `withDiagnosticsCapture`: the reports raised inside a scope, and only those.
@Suite(.timeLimit(.minutes(1)))
struct DiagnosticsCaptureTests {
    @Test func aSyncScopeReturnsTheReportsRaisedInside() {
        let line = #line + 2
        let reports = withDiagnosticsCapture {
            let promise = Promise<Int>()
            promise.resolve(1)
            promise.resolve(2)
            _ = Promise<String>()
        }
        #expect(reports.map(\.kind) == [.completedTwice, .promiseAbandoned])
        #expect(reports.map(\.line) == [line, line + 3])
        #expect(reports.allSatisfy { $0.fileID == #fileID })
    }

    @Test func aScopeWithoutMisuseReturnsNothing() async {
        #expect(withDiagnosticsCapture { Promise<Int>().succeed(1) }.isEmpty)
        #expect(await withDiagnosticsCapture { await Task.yield() }.isEmpty)
    }

    @Test func anAsyncScopeCapturesItsChildTasks() async {
        let reports = await withDiagnosticsCapture {
            async let child: Void = { _ = Promise<Int>() }()
            await child
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = Promise<Int>() }
            }
        }
        #expect(reports.map(\.kind) == [.promiseAbandoned, .promiseAbandoned])
    }

    @Test func twoScopesRunningAtOnceSeeOnlyTheirOwnReports() async {
        // The two scopes interleave: each raises a report while the other is open.
        let firstRaised = Promise<Void>()
        let secondRaised = Promise<Void>()
        async let first = withDiagnosticsCapture {
            abandonPromises(1)
            firstRaised.succeed()
            _ = await secondRaised.future.outcome
            abandonPromises(1)
        }
        async let second = withDiagnosticsCapture {
            _ = await firstRaised.future.outcome
            abandonPromises(3)
            secondRaised.succeed()
        }
        let (firstReports, secondReports) = await (first, second)
        #expect(firstReports.count == 2)
        #expect(secondReports.count == 3)
        #expect((firstReports + secondReports).allSatisfy { $0.line == abandonLine && $0.kind == .promiseAbandoned })
    }

    @Test func aNestedScopeTakesItsReportsFromTheOuterOne() {
        var inner: [Diagnostic] = []
        let outer = withDiagnosticsCapture {
            _ = Promise<Int>()
            inner = withDiagnosticsCapture {
                abandonPromises(2)
            }
        }
        #expect(inner.count == 2)
        #expect(outer.count == 1)
    }

    @Test func aThrowingScopeRethrowsAndHandsItsReportsToTheEnclosingScope() {
        var thrown: (any Error)?
        let outer = withDiagnosticsCapture {
            do {
                _ = try withDiagnosticsCapture {
                    abandonPromises(1)
                    throw TestError()
                }
            } catch {
                thrown = error
            }
        }
        #expect(thrown is TestError)
        #expect(outer.map(\.kind) == [.promiseAbandoned])
    }

    @MainActor
    @Test func aMainActorScopeRunsItsBodyOnTheMainActor() async {
        var touched = false
        let reports = await withDiagnosticsCapture {
            await Task.yield()
            dispatchPrecondition(condition: .onQueue(.main))
            touched = true
            _ = Promise<Int>()
        }
        #expect(touched)
        #expect(reports.count == 1)
    }
}

/// The line where ``abandonPromises(_:)`` makes its promises.
private let abandonLine = #line + 4

/// Releases `count` pending promises, each reported as abandoned at ``abandonLine``.
private func abandonPromises(_ count: Int) {
    for _ in 0..<count { _ = Promise<Int>() }
}
