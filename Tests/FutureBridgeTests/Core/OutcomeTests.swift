import Foundation
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct OutcomeTests {
    @Test func resultRoundTripKeepsValueAndError() throws {
        #expect(try Outcome<Int>(.success(3)).get() == 3)
        #expect(Outcome<Int>(.failure(TestError())).error as? TestError == TestError())
        #expect(try Outcome<Int>.success(3).result.get() == 3)
    }

    @Test func cancelledBecomesCancellationErrorInAResult() {
        #expect(throws: CancellationError.self) { try Outcome<Int>.cancelled.result.get() }
        #expect(throws: CancellationError.self) { try Outcome<Int>.cancelled.get() }
    }

    @Test(arguments: [
        CancellationError() as any Error,
        URLError(.cancelled),
        CocoaError(.userCancelled),
        NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled),
    ])
    func cancellationErrorsBecomeCancelled(error: any Error) {
        #expect(Outcome<Int>(error: error).isCancelled)
        #expect(Outcome<Int>(.failure(error)).isCancelled)
        #expect(Outcome<Int>(catching: { throw error }).isCancelled)
    }

    @Test(arguments: [
        TestError() as any Error,
        URLError(.timedOut),
        NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut),
    ])
    func otherErrorsStayFailures(error: any Error) {
        #expect(Outcome<Int>(error: error).error != nil)
    }

    struct Aborted: CancellationIndicating {
        var isCancellation: Bool
    }

    @Test func errorsCanSayTheyAreACancellation() {
        #expect(Outcome<Int>(error: Aborted(isCancellation: true)).isCancelled)
        #expect(Outcome<Int>(error: Aborted(isCancellation: false)).error is Aborted)
    }

    @Test func accessorsReportTheCase() {
        #expect(Outcome<Int>.success(1).value == 1)
        #expect(Outcome<Int>.success(1).error == nil)
        #expect(Outcome<Int>.failure(TestError()).value == nil)
        #expect(!Outcome<Int>.failure(TestError()).isCancelled)
        #expect(Outcome<Void>.success.value != nil)
        #expect("\(Outcome<Int>.success(1))" == "success(1)")
        #expect("\(Outcome<Int>.cancelled)" == "cancelled")
    }
}
