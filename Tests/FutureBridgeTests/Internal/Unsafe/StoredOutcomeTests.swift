import TestSupport
import Testing

@testable import FutureBridge

/// A completed future keeps small plain values inline and every other value boxed:
/// both must give back exactly what was stored, through a promise and through
/// unspecialized generic code alike, and a boxed value must be released with its future.
@Suite struct StoredOutcomeTests {
    struct Sixteen: Equatable { var a: Int64, b: Int32, c: Int16, d: UInt8, e: Bool }
    struct Seventeen: Equatable { var a: Int64, b: Int64, c: UInt8 }
    enum Shape: Equatable {
        case circle(Double)
        case square(Float)
        case none
    }
    final class Reference: Sendable {}

    /// Stores `value` in a future completed by a promise, reads it back twice (the read
    /// must not consume it), and reports whether it was kept inline.
    func roundTrip<Value: Sendable & Equatable>(_ value: Value) -> Bool {
        let promise = Promise<Value>()
        promise.succeed(value)
        #expect(promise.future.peek()?.value == value)
        #expect(promise.future.peek()?.value == value)
        return StoredOutcome<Value>.isInline
    }

    @Test func smallPlainValuesAreKeptInlineAndComeBackExactly() {
        #expect(roundTrip(Int.min))
        #expect(roundTrip(-0.0 as Double))
        #expect(roundTrip(true))
        #expect(roundTrip(Sixteen(a: .max, b: -2, c: 3, d: 255, e: true)))
        #expect(roundTrip(Shape.circle(2.5)))
        #expect(roundTrip(Shape.none))
        #expect(roundTrip(Optional<Int>.none))
        #expect(MemoryLayout<Sixteen>.size == 16)
    }

    @Test func otherValuesAreBoxedAndComeBackExactly() {
        #expect(!roundTrip(Seventeen(a: 1, b: 2, c: 3)))
        #expect(!roundTrip("a string long enough to live on the heap, not in the inline form"))
        #expect(!roundTrip([1, 2, 3]))
        #expect(!roundTrip(Optional("x")))
    }

    @Test func voidAndErrorsAndCancellationKeepTheirMeaning() {
        #expect(Future.succeeded.peek()?.value != nil)
        #expect(Future<Int>(error: TestError(code: 4)).peek()?.error as? TestError == TestError(code: 4))
        #expect(Future<String>.cancelled.peek()?.isCancelled == true)
    }

    @Test func aBoxedValueIsReleasedWithItsFuture() {
        weak var weakValue: Reference?
        do {
            let reference = Reference()
            weakValue = reference
            let future = Future(value: reference).map { $0 }
            #expect(future.peek()?.value === reference)
        }
        #expect(weakValue == nil)
    }
}
