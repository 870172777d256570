// Async forms of the completion-handler functions of SharedValueObservation.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Foundation
import FutureBridge
import GRDB

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

extension SharedValueObservation {
    /// Stream form of `start(onError:onChange:)`: the values its handler receives, in order.
    ///
    /// Starts observing the database.
    ///
    /// For example:
    ///
    /// ```swift
    /// let sharedObservation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .shared(in: dbQueue)
    ///
    /// let cancellable = try sharedObservation.start { error in
    ///     // handle error
    /// } onChange: { (players: [Player]) in
    ///     print("fresh players: \(players)")
    /// }
    /// ```
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task), or
    /// when the operation reports an error, which the loop throws; it also ends when the library releases
    /// the handler, since no more values can come. Then it calls `cancel()` on the `AnyDatabaseCancellable`
    /// that `start(onError:onChange:)` returns, which stops the handler.
    ///
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func start() -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let end = StreamEnd(continuation)
        let finish: @Sendable (Error) -> Void = { end.continuation.finish(throwing: $0) }
        let handle = start(onError: finish) { value in
            end.continuation.yield(value)
        }
        continuation.onTermination = { _ in handle.cancel() }
        return stream
    }
}
