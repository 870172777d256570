// Async forms of the completion-handler functions of PubSubClient.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Foundation
import FutureBridge

/// Ends a stream form's stream when the library releases the handlers that feed it (no
/// more values can come), throwing `AbandonedPromiseError` if a completion was due; and
/// stops the operation, exactly once, when the stream ends first. Its `onTermination` is
/// set before the operation starts, and `operation` hands the stop over: a stream that
/// ends before the stop is known runs it as soon as `onStop` gives it, and a stream that
/// ends after the operation (`operationEnded()`, the handlers released) stops nothing.
private final class StreamEnd<Element: Sendable>: Sendable {
    let continuation: AsyncThrowingStream<Element, any Error>.Continuation
    private let abandoned: AbandonedPromiseError?
    private let operation = Promise<Void>()

    nonisolated init(
        _ continuation: AsyncThrowingStream<Element, any Error>.Continuation, abandoned: AbandonedPromiseError? = nil
    ) {
        self.continuation = continuation
        self.abandoned = abandoned
        // (Once the operation has ended, the request does nothing.)
        continuation.onTermination = { [operation] _ in operation.future.requestCancellation() }
    }

    /// Runs `stop` when the stream ends before the operation does (now, if it has).
    nonisolated func onStop(_ stop: @escaping @Sendable () -> Void) {
        operation.cancelOnRequest(stop)
    }

    /// The operation ended (with `error`): finishes the stream without stopping anything.
    nonisolated func operationEnded(throwing error: (any Error)? = nil) {
        operation.succeed(())
        continuation.finish(throwing: error)
    }

    deinit {
        // The operation is over: ending the stream must not call back into the library.
        operationEnded(throwing: abandoned)
    }
}

extension PubSubClient {
    /// Stream form of `subscribe(to:messageReceiver:onSubscribe:)`: the messages `messageReceiver`
    /// receives, in order.
    ///
    /// Subscribes to `channels`. A channel named `forbidden` is refused; one named `closing`
    /// is confirmed, and its receivers released before this returns (a server that closes it);
    /// one named `pending` is registered but never confirmed (a server whose answer never comes).
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
    ///   awaiting task is cancelled first, which calls `unsubscribe(from:)` (the library may still register
    ///   the subscription).
    public nonisolated(nonsending) func subscribe(
        to channels: [String]
    ) async throws -> AsyncThrowingStream<(String, String), any Error> {
        let (stream, continuation) = AsyncThrowingStream<(String, String), any Error>.makeStream()
        let end = StreamEnd(continuation)
        let receiver2: @Sendable (String, String) -> Void = { end.continuation.yield(($0, $1)) }
        try await withPromise(of: Void.self) { promise in
            subscribe(to: channels, messageReceiver: receiver2).onComplete { outcome in
                promise.resolve(Result { try outcome.get() })
            }
            promise.cancelOnRequest { _ = self.unsubscribe(from: channels) }
        }
        end.onStop { _ = self.unsubscribe(from: channels) }
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
