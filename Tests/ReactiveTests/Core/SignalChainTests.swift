import FutureBridge
import TestSupport
import Testing

@testable import Reactive

/// Chains of 100,000 operators, on a thread with the 512 KiB stack of Apple's secondary
/// threads: starting, delivering, ending and detaching must not nest a call per operator
/// (about 5,000 chained maps used to overflow a debug build's stack).
@Suite struct SignalChainTests {
    static let length = stressIterations(100_000, atLeast: 10_000)

    @Test func hundredThousandChainedMapsDeliverValuesAndTheEnd() {
        runOnThread(stackSize: secondaryThreadStackSize) {
            let (signal, input) = Signal<Int>.pipe()
            var chained = signal
            for _ in 0..<Self.length { chained = chained.map { $0 + 1 } }
            let events = record(chained)
            for value in 0..<3 { input.send(value) }
            input.sendCompleted()
            #expect(events.all == ["\(Self.length)", "\(Self.length + 1)", "\(Self.length + 2)", "completed"])
        }
    }

    @Test func hundredThousandPipesChainedByHandlersDeliverWithoutNesting() {
        // Not operators: handlers that send to the next pipe (the bound holds for any send
        // made during a delivery, not only an operator's).
        runOnThread(stackSize: secondaryThreadStackSize) {
            let (head, input) = Signal<Int>.pipe()
            var chained = head
            var observations: [SignalObservation] = []
            for _ in 0..<Self.length {
                let (next, nextInput) = Signal<Int>.pipe()
                observations.append(chained.observe { nextInput.send($0) })
                chained = next
            }
            let events = record(chained)
            input.send(1)
            input.sendCompleted()
            #expect(events.all == ["1", "completed"])
            withExtendedLifetime(observations) {}
        }
    }

    @Test func detachingTheEndOfAHundredThousandChainStopsTheSource() {
        runOnThread(stackSize: secondaryThreadStackSize) {
            let stops = Counter()
            let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
            var chained = signal
            for _ in 0..<Self.length { chained = chained.filter { _ in true } }
            let received = Counter()
            let observation = chained.observe { _ in received.increment() }
            input.send(1)
            observation.detach()  // the end's last observer: interrupts the chain down to its source
            #expect(received.count == 1)
            #expect(stops.count == 1)
            withExtendedLifetime(input) {}
        }
    }

    @Test func interruptingTheHeadOfAHundredThousandChainEndsItsEnd() {
        runOnThread(stackSize: secondaryThreadStackSize) {
            let stops = Counter()
            let (signal, input) = Signal<Int>.pipe(onStop: { stops.increment() })
            var chained = signal
            for _ in 0..<Self.length { chained = chained.map { $0 } }
            let observation = chained.observe { _ in }
            let events = record(chained)
            input.send(7)
            observation.detach()
            input.sendInterrupted()
            #expect(events.all == ["7", "interrupted"])
            #expect(stops.count == 1)
        }
    }
}
