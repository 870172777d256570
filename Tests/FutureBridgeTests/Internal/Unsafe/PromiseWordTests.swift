import FutureBridgeAtomics
import FutureBridgeInternals
import TestSupport
import Testing

@testable import FutureBridge

@Suite struct PromiseWordTests {
    /// A future's storage holds the lock (`LockHolder`'s first stored property) and keeps
    /// its promise's word in the lock word's holder bits: what the atomics write is what
    /// the object's own property holds.
    @Test func theFuturesLockAndPromiseWordAreTheStoragesFirstStoredProperty() {
        let promise = Promise<Int>()
        let box = promise.storage.box
        #expect(storedPropertyLabels(of: box).first == "word")
        #expect(Promise<Int>.promiseWord(of: promise.storage) == box.holderBitsAddress)
        let origin = fb_u32_load_relaxed(box.holderBitsAddress) >> Promise<Int>.originShift
        #expect(origin != 0)
        #expect(fb_u32_load_relaxed(box.holderBitsAddress) & 3 == 0)
        promise.resolve(1)
        #expect(fb_u32_load_relaxed(box.holderBitsAddress) == origin << Promise<Int>.originShift | 3)
    }

    /// A combined future's pending-input count is its first stored property, moved only
    /// atomically: the input that moves it to 0 is the one that completes.
    @Test func aCombinationsCountIsItsFirstStoredProperty() {
        let inputs = [Promise<Int>(), Promise<Int>(), Promise<Int>()]
        let combination = Combination<Int>(inputs: inputs.map(\.future.storage.box))
        #expect(storedPropertyLabels(of: combination).first == "remaining")
        #expect(!combination.inputCompleted())
        #expect(combination.remaining == 2)
        combination.complete(.cancelled)
    }
}
