// Completion-handler forms of the async functions of AsyncAPI.swift, for callers not
// migrated yet, written by futurebridge-migrate: each runs the function in a task
// (FutureBridge's Future), calls the handler exactly once, and returns the
// CancellationToken that cancels the task. Edit freely: the tool never overwrites an
// existing file.

import Foundation
import FutureBridge

extension Inventory {
    /// Completion-handler form of `count(of:)`, for callers not migrated to async yet.
    ///
    /// How many of `item` are in stock.
    ///
    /// - Parameter item: The item's name.
    /// - Parameter completion: Called once with the value (the function cannot fail, so a cancelled task
    ///   delivers it too).
    /// - Returns: A token whose `cancel()` cancels the task that runs `count(of:)`.
    @discardableResult
    public nonisolated func count(of item: String, completion: @escaping @Sendable (Int) -> Void) -> CancellationToken {
        Future<Int> { await self.count(of: item) }.deliver(on: .inline, to: completion)
    }

    /// Completion-handler form of `reserve(_:quantity:)`, for callers not migrated to async yet.
    ///
    /// Reserves `quantity` of `item`.
    ///
    /// - Parameter completion: Called once, with the value or the error; with `CancellationError` if the
    ///   token cancelled the task and the function stopped.
    /// - Returns: A token whose `cancel()` cancels the task that runs `reserve(_:quantity:)`.
    @discardableResult
    public nonisolated func reserve(
        _ item: String,
        quantity: Int,
        completion: @escaping @Sendable (Result<Reservation, any Error>) -> Void
    ) -> CancellationToken {
        Future<Reservation> { try await self.reserve(item, quantity: quantity) }.deliver(on: .inline, to: completion)
    }

    /// Completion-handler form of `clear()`, for callers not migrated to async yet.
    ///
    /// Empties the inventory.
    ///
    /// - Parameter completion: Called once, with nil or the error; with `CancellationError` if the token
    ///   cancelled the task and the function stopped.
    /// - Returns: A token whose `cancel()` cancels the task that runs `clear()`.
    @discardableResult
    public nonisolated func clear(completion: @escaping @Sendable ((any Error)?) -> Void) -> CancellationToken {
        Future<Void> { try await self.clear() }.deliver(on: .inline, to: completion)
    }
}

extension PriceService {
    /// Completion-handler form of `price(of:)`, for callers not migrated to async yet.
    ///
    /// The price of an item.
    ///
    /// - Parameter completion: Called once, with the value or the error; with `CancellationError` if the
    ///   token cancelled the task and the function stopped.
    /// - Returns: A token whose `cancel()` cancels the task that runs `price(of:)`.
    @discardableResult
    public func price(
        of item: String,
        completion: @escaping @Sendable (Result<Double, any Error>) -> Void
    ) -> CancellationToken {
        Future<Double> { try await self.price(of: item) }.deliver(on: .inline, to: completion)
    }

    /// Completion-handler form of `waitForQuote()`, for callers not migrated to async yet.
    ///
    /// Waits for a quote that never comes, until its task is cancelled.
    ///
    /// - Parameter completion: Called once, with the value or the error; with `CancellationError` if the
    ///   token cancelled the task and the function stopped.
    /// - Returns: A token whose `cancel()` cancels the task that runs `waitForQuote()`.
    @discardableResult
    public func waitForQuote(completion: @escaping @Sendable (Result<Double, any Error>) -> Void) -> CancellationToken {
        Future<Double> { try await self.waitForQuote() }.deliver(on: .inline, to: completion)
    }

    /// Completion-handler form of `scale(_:by:)`, for callers not migrated to async yet.
    ///
    /// Scales a value of any floating-point type.
    ///
    /// - Parameter completion: Called once with the value (the function cannot fail, so a cancelled task
    ///   delivers it too).
    /// - Returns: A token whose `cancel()` cancels the task that runs `scale(_:by:)`.
    @discardableResult
    public func scale<Value: BinaryFloatingPoint>(
        _ value: Value,
        by factor: Value,
        completion: @escaping @Sendable (Value) -> Void
    ) -> CancellationToken where Value: Sendable {
        Future<Value> { await self.scale(value, by: factor) }.deliver(on: .inline, to: completion)
    }

    /// Completion-handler form of `currency()`, for callers not migrated to async yet.
    ///
    /// The currency, from a type method.
    ///
    /// - Parameter completion: Called once with the value (the function cannot fail, so a cancelled task
    ///   delivers it too).
    /// - Returns: A token whose `cancel()` cancels the task that runs `currency()`.
    @discardableResult
    public static func currency(completion: @escaping @Sendable (String) -> Void) -> CancellationToken {
        Future<String> { await self.currency() }.deliver(on: .inline, to: completion)
    }

    /// Completion-handler form of `refreshBadge()`, for callers not migrated to async yet.
    ///
    /// Refreshes the badge, on the main actor.
    ///
    /// - Parameter completion: Called once with the value (the function cannot fail, so a cancelled task
    ///   delivers it too).
    /// - Returns: A token whose `cancel()` cancels the task that runs `refreshBadge()`.
    @discardableResult
    @MainActor
    public func refreshBadge(completion: @escaping @Sendable (Int) -> Void) -> CancellationToken {
        Future<Int> { await self.refreshBadge() }.deliver(on: .inline, to: completion)
    }

    /// Completion-handler form of `touch()`, for callers not migrated to async yet.
    ///
    /// Fires and forgets.
    ///
    /// - Parameter completion: Called once, when the function returns.
    /// - Returns: A token whose `cancel()` cancels the task that runs `touch()`.
    @discardableResult
    public func touch(completion: @escaping @Sendable () -> Void) -> CancellationToken {
        Future<Void> { await self.touch() }.deliver(on: .inline, to: completion)
    }
}

/// Completion-handler form of `fetchGreeting(for:)`, for callers not migrated to async yet.
///
/// Greets someone, from file scope.
///
/// - Parameter completion: Called once, with the value or the error; with `CancellationError` if the
///   token cancelled the task and the function stopped.
/// - Returns: A token whose `cancel()` cancels the task that runs `fetchGreeting(for:)`.
@discardableResult
public func fetchGreeting(
    for name: String,
    completion: @escaping @Sendable (Result<String, any Error>) -> Void
) -> CancellationToken {
    Future<String> { try await fetchGreeting(for: name) }.deliver(on: .inline, to: completion)
}
