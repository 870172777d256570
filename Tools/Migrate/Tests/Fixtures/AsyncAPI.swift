// An async API, written for the tests of `--legacy-shims`: futurebridge-migrate
// generated AsyncAPI+LegacyShims.swift (completion-handler shims) from this file.
import Foundation

/// A reservation the inventory hands out.
public struct Reservation: Sendable, Equatable {
    public var item: String
    public var quantity: Int

    public init(item: String, quantity: Int) {
        self.item = item
        self.quantity = quantity
    }
}

/// An actor with async functions.
public actor Inventory {
    private var stock: [String: Int]

    public init(stock: [String: Int]) {
        self.stock = stock
    }

    /// How many of `item` are in stock.
    ///
    /// - Parameter item: The item's name.
    /// - Returns: The count, 0 for an unknown item.
    public func count(of item: String) async -> Int {
        stock[item] ?? 0
    }

    /// Reserves `quantity` of `item`.
    ///
    /// - Throws: `FixtureError` when there are not enough.
    public func reserve(_ item: String, quantity: Int) async throws -> Reservation {
        guard let available = stock[item], available >= quantity else { throw FixtureError("not enough \(item)") }
        stock[item] = available - quantity
        return Reservation(item: item, quantity: quantity)
    }

    /// Empties the inventory.
    public func clear() async throws {
        stock = [:]
    }
}

/// A `Sendable` class with async functions.
public final class PriceService: Sendable {
    /// Yields once for each started `waitForQuote()`.
    public let started: AsyncStream<Void>
    private let startedContinuation: AsyncStream<Void>.Continuation

    public init() {
        (started, startedContinuation) = AsyncStream.makeStream()
    }

    /// The price of an item.
    public func price(of item: String) async throws -> Double {
        guard !item.isEmpty else { throw FixtureError("no item") }
        return Double(item.count)
    }

    /// Waits for a quote that never comes, until its task is cancelled.
    public func waitForQuote() async throws -> Double {
        let (never, continuation) = AsyncStream<Double>.makeStream()
        startedContinuation.yield()
        for await quote in never { return quote }
        withExtendedLifetime(continuation) {}
        throw CancellationError()
    }

    /// Scales a value of any floating-point type.
    public func scale<Value: BinaryFloatingPoint>(_ value: Value, by factor: Value) async -> Value {
        value * factor
    }

    /// The currency, from a type method.
    public static func currency() async -> String { "EUR" }

    /// Refreshes the badge, on the main actor.
    @MainActor
    public func refreshBadge() async -> Int { 3 }

    /// Fires and forgets.
    public func touch() async {}
}

/// Greets someone, from file scope.
public func fetchGreeting(for name: String) async throws -> String {
    "Hello, \(name)!"
}

/// Not `Sendable`: a shim's task cannot capture it.
public final class Session {
    public init() {}

    public func load() async -> Int { 1 }
}

/// Takes a value that is not `Sendable`.
public func describe(_ session: Session) async -> String { "\(session.hashValue)" }

extension Session: Hashable {
    public static func == (lhs: Session, rhs: Session) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Returns a value that is not `Sendable`.
public func makeSession() async -> Session { Session() }

/// Has a completion-handler sibling already.
public func legacyStatus(completion: @escaping @Sendable (String) -> Void) {
    completion("ok")
}

public func legacyStatus() async -> String { "ok" }

/// Variadic.
public func sum(_ values: Int...) async -> Int { values.reduce(0, +) }
