import Testing

@testable import FutureBridge

/// A cache's entries on their own: fetches in, which one a key has and what a settled
/// fetch does out; time is a number, no threads.
@Suite struct CacheStateMachineTests {
    final class Fetch {}
    typealias Machine = CacheStateMachine<String, Fetch>

    @Test func aFetchInFlightIsLiveWhateverTheTime() {
        var machine = Machine(lifetime: 10)
        let fetch = Fetch()
        #expect(machine.inserted(fetch, for: "a") == nil)
        #expect(machine.liveFetch(for: "a", now: 1_000_000) === fetch)
        #expect(machine.liveFetch(for: "b", now: 0) == nil)
    }

    @Test func aValueExpiresExactlyItsLifetimeAfterItArrived() {
        var machine = Machine(lifetime: 10)
        let fetch = Fetch()
        _ = machine.inserted(fetch, for: "a")
        #expect(machine.settled(fetch, for: "a", succeeded: true, now: 100) == nil)
        #expect(machine.liveFetch(for: "a", now: 109) === fetch)
        #expect(machine.liveFetch(for: "a", now: 110) == nil)
        #expect(machine.entries.count == 1)  // an expired entry stays until replaced
    }

    @Test func withoutALifetimeAValueNeverExpires() {
        var machine = Machine(lifetime: nil)
        let fetch = Fetch()
        _ = machine.inserted(fetch, for: "a")
        _ = machine.settled(fetch, for: "a", succeeded: true, now: 0)
        #expect(machine.liveFetch(for: "a", now: nil) === fetch)
        #expect(machine.liveFetch(for: "a", now: .max) === fetch)
    }

    @Test func aFailedOrCancelledFetchIsEvicted() {
        var machine = Machine(lifetime: nil)
        let fetch = Fetch()
        _ = machine.inserted(fetch, for: "a")
        let evicted = machine.settled(fetch, for: "a", succeeded: false, now: 5)
        #expect(evicted?.fetch === fetch)
        #expect(machine.liveFetch(for: "a", now: nil) == nil)
        #expect(machine.entries.isEmpty)
    }

    @Test func aReplacedFetchSettlingChangesNothing() {
        var machine = Machine(lifetime: nil)
        let old = Fetch()
        let new = Fetch()
        _ = machine.inserted(old, for: "a")
        let replaced = machine.inserted(new, for: "a")
        #expect(replaced?.fetch === old)
        #expect(machine.settled(old, for: "a", succeeded: false, now: 1) == nil)
        #expect(machine.liveFetch(for: "a", now: nil) === new)
        _ = machine.removed("a")
        #expect(machine.settled(new, for: "a", succeeded: true, now: 2) == nil)  // removed meanwhile
        #expect(machine.entries.isEmpty)
    }

    @Test func removingHandsTheEntriesBack() {
        var machine = Machine(lifetime: nil)
        for key in ["a", "b", "c"] { _ = machine.inserted(Fetch(), for: key) }
        #expect(machine.removed("b") != nil)
        #expect(machine.removed("b") == nil)
        #expect(Set(machine.removedAll().keys) == ["a", "c"])
        #expect(machine.entries.isEmpty)
    }
}
