import Fixtures
import Foundation
import FutureBridge
import Testing

/// The generated completion-handler shims (Fixtures/AsyncAPI+LegacyShims.swift), called
/// as legacy code calls them. `withPromise` turns each callback back into a value here.
@Suite("Legacy shims at run time", .timeLimit(.minutes(1)))
struct LegacyShimTests {
    @Test func actorMethods() async throws {
        let inventory = Inventory(stock: ["apple": 3])
        let count = try await withPromise(of: Int.self) { promise in
            inventory.count(of: "apple", completion: promise.resolve)
        }
        #expect(count == 3)
        let reservation = try await withPromise(of: Reservation.self) { promise in
            inventory.reserve("apple", quantity: 2, completion: promise.resolve)
        }
        #expect(reservation == Reservation(item: "apple", quantity: 2))
        await #expect(throws: FixtureError("not enough apple")) {
            try await withPromise(of: Reservation.self) { promise in
                inventory.reserve("apple", quantity: 5, completion: promise.resolve)
            }
        }
        try await withPromise(of: Void.self) { promise in inventory.clear(completion: promise.resolve) }
        #expect(await inventory.count(of: "apple") == 0)
    }

    @Test func classStaticGenericAndFileScope() async throws {
        let service = PriceService()
        #expect(try await withPromise(of: Double.self) { service.price(of: "pear", completion: $0.resolve) } == 4)
        await #expect(throws: FixtureError("no item")) {
            try await withPromise(of: Double.self) { service.price(of: "", completion: $0.resolve) }
        }
        #expect(try await withPromise(of: Float.self) { service.scale(Float(2), by: 3, completion: $0.resolve) } == 6)
        #expect(try await withPromise(of: String.self) { PriceService.currency(completion: $0.resolve) } == "EUR")
        try await withPromise(of: Void.self) { service.touch(completion: $0.resolve) }
        #expect(
            try await withPromise(of: String.self) { fetchGreeting(for: "Bo", completion: $0.resolve) } == "Hello, Bo!")
    }

    @Test @MainActor func mainActorFunction() async throws {
        let service = PriceService()
        #expect(try await withPromise(of: Int.self) { service.refreshBadge(completion: $0.resolve) } == 3)
    }

    @Test("The token cancels the task: the handler gets CancellationError")
    func tokenCancels() async throws {
        let service = PriceService()
        let (results, continuation) = AsyncStream.makeStream(of: Result<Double, any Error>.self)
        let token = service.waitForQuote { continuation.yield($0) }
        for await _ in service.started { break }
        token.cancel()
        var iterator = results.makeAsyncIterator()
        let result = await iterator.next()
        #expect(throws: CancellationError.self) { try result?.get() }
    }
}
