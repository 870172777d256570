import Dispatch
import TestSupport
import Testing

@testable import FutureBridgeInternals

@Suite struct IsolatedCallTests {
    @Test func aCallRegisteredOutsideAnyActorRunsAtOnceOnTheCallingThread() {
        let received = Recorder<Int>()
        let call = IsolatedCall<Int>(isolation: nil) { value in received.append(value) }
        call.run(5)
        #expect(received.all == [5])
    }

    /// On the main queue at once; from another thread queued there, in the order the
    /// calls were made.
    @Test @MainActor func aCallRegisteredOnTheMainActorRunsThereInTheOrderOfTheCalls() async {
        let order = Recorder<Int>()
        let calls = (0..<100).map { index in
            IsolatedCall<Void>(isolation: MainActor.shared) { _ in
                MainActor.preconditionIsolated()
                order.append(index)
            }
        }
        calls[0].run(())
        #expect(order.all == [0])
        let rest = Array(calls.dropFirst())
        await onAnotherThread {
            for call in rest { call.run(()) }  // each body checks it runs on the main actor
        }
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
        #expect(order.all == Array(0..<100))
    }

    actor Owner {
        func register(reporting report: @escaping @Sendable (Int) -> Void) -> IsolatedCall<Int> {
            IsolatedCall(isolation: self) { [self] value in
                self.preconditionIsolated()  // stops the test process if not on the actor
                report(value)
            }
        }
    }

    @Test func aCallRegisteredOnAnActorRunsOnThatActor() async {
        let owner = Owner()
        let (reports, reported) = AsyncStream.makeStream(of: Int.self)
        let call = await owner.register { reported.yield($0) }
        call.run(3)
        var iterator = reports.makeAsyncIterator()
        #expect(await iterator.next() == 3)
    }

    @Test @MainActor func runOnMainActorRunsAtOnceOnTheMainQueueAndQueuesFromElsewhere() async {
        let order = Recorder<String>()
        MainQueue.runOnMainActor { order.append("at once") }
        #expect(MainQueue.isCurrent)
        #expect(order.all == ["at once"])
        await onAnotherThread {
            #expect(!MainQueue.isCurrent)
            MainQueue.runOnMainActor {
                MainActor.preconditionIsolated()
                order.append("queued")
            }
        }
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
        #expect(order.all == ["at once", "queued"])
    }
}
