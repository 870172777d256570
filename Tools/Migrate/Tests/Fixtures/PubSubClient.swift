// A publish/subscribe client in the style of a database client's: a subscription's
// messages reach a receiver closure, the future the call returns confirms it (or fails),
// and `unsubscribe(from:)` with the same channels removes it. The tests drive the stream
// form futurebridge-migrate generated in PubSubClient+Async.swift.
import Foundation
import FutureBridge

/// The failure of a subscription the server refuses.
public struct PubSubError: Error, Equatable, Sendable {
    public var channel: String

    public init(channel: String) {
        self.channel = channel
    }
}

/// A client whose subscriptions are held in memory; `publish(_:to:)` delivers a message.
public final class PubSubClient: @unchecked Sendable {
    // Every field is read and written under `lock`: the class is Sendable.
    private let lock = NSLock()
    private var receivers: [String: [@Sendable (String, String) -> Void]] = [:]
    private var unsubscribes = 0
    private var pending: [Promise<Void>] = []
    private var onPending: (@Sendable () -> Void)?

    public init() {}

    /// Subscribes to `channels`. A channel named `forbidden` is refused; one named `closing`
    /// is confirmed, and its receivers released before this returns (a server that closes it);
    /// one named `pending` is registered but never confirmed (a server whose answer never comes).
    ///
    /// - Parameters:
    ///   - channels: The channels to subscribe to.
    ///   - receiver: Called with the channel and the message, for each message published.
    ///   - subscribeHandler: Called with each channel once its subscription is active.
    /// - Returns: A future that succeeds once the subscription is registered, or fails with
    ///   `PubSubError`.
    public func subscribe(
        to channels: [String], messageReceiver receiver: @escaping @Sendable (String, String) -> Void,
        onSubscribe subscribeHandler: (@Sendable (String) -> Void)? = nil
    ) -> Future<Void> {
        if let refused = channels.first(where: { $0 == "forbidden" }) {
            return Future { promise in promise.fail(PubSubError(channel: refused)) }
        }
        lock.withLock {
            for channel in channels { receivers[channel, default: []].append(receiver) }
        }
        if channels.contains("pending") {
            // Kept, never completed; `whenPending`'s closure runs once the receiver is registered.
            let promise = Promise<Void>()
            let reached = lock.withLock {
                pending.append(promise)
                return onPending
            }
            reached?()
            return promise.future
        }
        for channel in channels { subscribeHandler?(channel) }
        let closed = lock.withLock { receivers.removeValue(forKey: "closing") }
        withExtendedLifetime(closed) {}
        return Future { promise in promise.succeed(()) }
    }

    /// Unsubscribes from `channels`: their receivers are released.
    ///
    /// - Returns: A future that succeeds once the subscriptions are removed.
    public func unsubscribe(from channels: [String]) -> Future<Void> {
        // Released after the lock: what releasing a receiver runs may call back into the client.
        let (removed, unanswered) = lock.withLock {
            unsubscribes += 1
            let unanswered = channels.contains("pending") ? pending : []
            if channels.contains("pending") { pending = [] }
            return (channels.compactMap { receivers.removeValue(forKey: $0) }, unanswered)
        }
        withExtendedLifetime(removed) {}
        // The unconfirmed subscription's future fails: nothing is left pending.
        for promise in unanswered { _ = promise.fail(PubSubError(channel: "pending")) }
        return Future { promise in promise.succeed(()) }
    }

    /// Delivers `message` to the receivers of `channel`, in order.
    public func publish(_ message: String, to channel: String) {
        for receiver in lock.withLock({ receivers[channel] ?? [] }) { receiver(channel, message) }
    }

    /// Runs `body` when a subscription to `pending` is registered and left unconfirmed.
    public func whenPending(_ body: @escaping @Sendable () -> Void) {
        lock.withLock { onPending = body }
    }

    /// How many times `unsubscribe(from:)` was called.
    public var unsubscribeCount: Int { lock.withLock { unsubscribes } }

    /// How many receivers `channel` has.
    public func subscriberCount(_ channel: String) -> Int {
        lock.withLock { receivers[channel]?.count ?? 0 }
    }
}
