// Async forms of the completion-handler functions of PubSubClient.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Foundation
import FutureBridge

/// Ends a stream form's stream when the library releases the handlers that feed it (no
/// more values can come), throwing `AbandonedPromiseError` if a completion was due.
private final class StreamEnd<Element: Sendable>: Sendable {
    let continuation: AsyncThrowingStream<Element, any Error>.Continuation
    private let abandoned: AbandonedPromiseError?

    init(
        _ continuation: AsyncThrowingStream<Element, any Error>.Continuation, abandoned: AbandonedPromiseError? = nil
    ) {
        self.continuation = continuation
        self.abandoned = abandoned
    }

    deinit {
        // The operation is over: ending the stream must not call back into the library.
        continuation.onTermination = nil
        if let abandoned {
            continuation.finish(throwing: abandoned)
        } else {
            continuation.finish()
        }
    }
}

extension PubSubClient {
    /// Stream form of `subscribe(to:messageReceiver:onSubscribe:)`: the messages `messageReceiver`
    /// receives, in order.
    ///
    /// Subscribes to `channels`. A channel named `forbidden` is refused.
    ///
    /// The stream starts once the `Future` that `subscribe(to:messageReceiver:onSubscribe:)` returns
    /// confirms the subscription (this function throws its error). It ends when its consumer stops (leaving
    /// the loop, or cancelling the iterating task), and then calls `unsubscribe(from:)` with the same
    /// arguments; it also ends when the library releases `messageReceiver`, since no more messages can
    /// come. The other handlers are not passed.
    ///
    /// - Parameters:
    ///   - channels: The channels to subscribe to.
    /// - Returns: The messages, in order. The stream buffers those its consumer has not taken yet.
    /// - Throws: The error of the `Future` that confirms the subscription; `CancellationError` when the
    ///   awaiting task is cancelled first.
    public nonisolated(nonsending) func subscribe(
        to channels: [String]
    ) async throws -> AsyncThrowingStream<(String, String), any Error> {
        let (stream, continuation) = AsyncThrowingStream<(String, String), any Error>.makeStream()
        let end = StreamEnd(continuation)
        let receiver2: @Sendable (String, String) -> Void = { end.continuation.yield(($0, $1)) }
        try await subscribe(to: channels, messageReceiver: receiver2).value
        continuation.onTermination = { _ in _ = self.unsubscribe(from: channels) }
        return stream
    }

    /// Async form of `unsubscribe(from:)`: awaits the future it returns.
    ///
    /// Unsubscribes from `channels`: their receivers are released.
    ///
    /// Cancelling the awaiting task withdraws its interest in the future: the promise that completes it
    /// gets a cancel request when nothing else waits for it.
    ///
    /// - Throws: The future's error; `CancellationError` when the future is cancelled or the awaiting task
    ///   is.
    public nonisolated(nonsending) func unsubscribe(from channels: [String]) async throws {
        try await unsubscribe(from: channels).value
    }
}
