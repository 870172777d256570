import Fixtures
import FutureBridge
import Testing

/// The stream form of a subscription with a receiver (Fixtures/PubSubClient+Async.swift):
/// it starts once the returned future confirms the subscription, yields each message in
/// order, throws a refusal, and unsubscribes when its consumer stops.
@Suite("Subscriptions with a receiver", .timeLimit(.minutes(1)))
struct PubSubClientTests {
    let client = PubSubClient()

    @Test("The stream starts registered and yields every message in order")
    func messagesInOrder() async throws {
        let stream = try await client.subscribe(to: ["news"])
        #expect(client.subscriberCount("news") == 1)
        for message in ["a", "b", "c"] { client.publish(message, to: "news") }
        var iterator = stream.makeAsyncIterator()
        var received: [String] = []
        for _ in 0..<3 { try await received.append(#require(iterator.next()).1) }
        #expect(received == ["a", "b", "c"])
    }

    @Test("A refused subscription throws the future's error")
    func refused() async throws {
        await #expect(throws: PubSubError(channel: "forbidden")) {
            _ = try await client.subscribe(to: ["forbidden"])
        }
        #expect(client.subscriberCount("forbidden") == 0)
    }

    @Test("The consumer's end unsubscribes; the library's release of the receiver ends the loop")
    func consumerEndUnsubscribes() async throws {
        let stream = try await client.subscribe(to: ["news"])
        let consumer = Task {
            for try await _ in stream {}
        }
        consumer.cancel()
        try await consumer.value
        #expect(client.subscriberCount("news") == 0)

        // Unsubscribed by someone else: the receiver is released, and the loop ends.
        let other = try await client.subscribe(to: ["sport"])
        try await client.unsubscribe(from: ["sport"])
        for try await _ in other {}
    }

    @Test("A subscription the server closes before the confirmation arrives: the loop ends, and nothing unsubscribes")
    func closedBeforeConfirmation() async throws {
        // In a function, so that the stream is released before the count is read.
        func drain() async throws {
            for try await _ in try await client.subscribe(to: ["closing"]) {}
        }
        try await drain()
        #expect(client.unsubscribeCount == 0)
    }

    @Test("Cancelling the wait for a confirmation that never comes throws at once and unsubscribes")
    func cancelledWhileUnconfirmed() async throws {
        let (registered, signal) = AsyncStream<Void>.makeStream()
        client.whenPending { signal.yield() }
        let waiting = Task { try await client.subscribe(to: ["pending"]) }
        var iterator = registered.makeAsyncIterator()
        await iterator.next()
        waiting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
        #expect(client.unsubscribeCount == 1)
        #expect(client.subscriberCount("pending") == 0)
    }
}
