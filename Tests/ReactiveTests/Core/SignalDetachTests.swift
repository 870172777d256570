import FutureBridge
import FutureBridgeInternals
import TestSupport
import Testing

@testable import Reactive

/// Detaching at scale: each detach copied the whole list of observers (twice), so
/// detaching n observers took O(n²): 16,000 took 11 seconds, a million would take hours.
@Suite(.timeLimit(.minutes(3)))
struct SignalDetachTests {
    /// A million observers (a tenth by default; see `stressIterations`) attached to one
    /// signal that another observer keeps going, detached one by one, in attachment
    /// order or in reverse. The drainer's copy of the observers holds them all (a value
    /// went out), and each detached handler is let go when its `detach()` returns.
    ///
    /// The work runs on a thread of its own: a test this long that held a thread of the
    /// cooperative pool would starve the tests that run beside it (under ThreadSanitizer
    /// the two cases held both of this machine's two for five minutes, and a test with a
    /// one-minute limit ran out of it).
    @Test(arguments: [false, true])
    func detachingAMillionObserversOneByOneTakesLinearTime(inReverse: Bool) async {
        let count = stressIterations(1_000_000, atLeast: 100_000)
        let stop = Locked(false)
        let seen = Locked(DetachRun())
        await withTaskCancellationHandler {
            await onAnotherThread {
                let run = Self.detachOneByOne(count, inReverse: inReverse) { stop.withLock { $0 } }
                seen.withLock { $0 = run }
            }
        } onCancel: {
            stop.withLock { $0 = true }
        }
        let run = seen.withLock { $0 }
        if stoppedByItsTimeLimit(after: "\(run.detached) of \(count) detaches") { return }
        #expect(run.receivedFirst == count)
        #expect(run.liveHalfway == count - count / 2 - 1)
        #expect(run.liveAtTheEnd == 0)
        #expect(run.receivedAfter == count)
        #expect(run.keptReceived == 2)
        #expect(!run.terminated)
    }

    /// What ``detachOneByOne(_:inReverse:stopped:)`` saw, checked on the test's task.
    struct DetachRun: Sendable {
        var detached = 0
        var receivedFirst = 0
        var liveHalfway = -1
        var liveAtTheEnd = -1
        var receivedAfter = 0
        var keptReceived = 0
        var terminated = true
    }

    static func detachOneByOne(
        _ count: Int, inReverse: Bool, stopped: () -> Bool
    ) -> DetachRun {
        var run = DetachRun()
        let (signal, input) = Signal<Int>.pipe()
        let kept = Counter()
        signal.observeValues { _ in kept.increment() }
        let live = Tracked.Live()
        let received = Counter()
        var observations: [SignalObservation] = []
        observations.reserveCapacity(count)
        for index in 0..<count {
            let captured = Tracked(index, live)
            observations.append(
                signal.observeValues { _ in
                    _ = captured
                    received.increment()
                })
        }
        input.send(1)
        run.receivedFirst = received.count
        let order = inReverse ? Array((0..<count).reversed()) : Array(0..<count)
        for (detached, index) in order.enumerated() {
            if detached % 100 == 0 && stopped() { return run }
            observations[index].detach()
            run.detached = detached + 1
            if detached == count / 2 { run.liveHalfway = live.now }
        }
        run.liveAtTheEnd = live.now
        input.send(2)  // to the observer that stays only
        run.receivedAfter = received.count
        run.keptReceived = kept.count
        run.terminated = signal.isTerminated
        return run
    }

    /// Detaches leave holes that are closed once they outnumber the observers: values go
    /// to the remaining observers in attachment order all along, before and after.
    @Test func valuesReachTheRemainingObserversInAttachmentOrderAsObserversDetach() {
        let (signal, input) = Signal<Int>.pipe()
        let log = Recorder<Int>()
        let observations = (0..<16).map { index in signal.observeValues { _ in log.append(index) } }
        var remaining = Array(0..<16)
        // Middle first, then the ends, so that holes and compactions land everywhere.
        for index in [7, 8, 6, 9, 0, 15, 1, 14, 3, 12, 2, 13, 5, 10] {
            observations[index].detach()
            remaining.removeAll { $0 == index }
            let before = log.all.count
            input.send(index)
            #expect(Array(log.all[before...]) == remaining)
        }
        let late = Recorder<Int>()
        signal.observeValues { _ in late.append(0) }  // attached after the holes
        input.send(-1)
        #expect(Array(log.all.suffix(2)) == remaining)
        #expect(late.all == [0])
    }
}
