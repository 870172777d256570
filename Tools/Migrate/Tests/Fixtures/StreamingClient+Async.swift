// Async forms of the completion-handler functions of StreamingClient.swift, written by
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

extension StreamingClient {
    /// Stream form of `stream(query:onResult:completion:)`: the values its handler receives, in order.
    ///
    /// Streams the results of `query`, then calls `completion` (with the error that ended
    /// the query, if any).
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task), when
    /// the operation ends (`completion` is called: the loop then throws the error it receives, if any), or
    /// when a value reports an error, which the loop throws; when the library releases the handlers without
    /// calling `completion`, the loop throws `AbandonedPromiseError`. When the consumer stops, or a value
    /// reports an error, it calls `cancelRequest()` on the `RequestHandle` that
    /// `stream(query:onResult:completion:)` returns, which stops the handler; an end by `completion` or the
    /// library's release stops nothing: the operation is over.
    ///
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func stream(query: String) -> AsyncThrowingStream<Chunk, any Error> {
        let (stream2, continuation) = AsyncThrowingStream<Chunk, any Error>.makeStream()
        let end = StreamEnd(continuation, abandoned: AbandonedPromiseError(fileID: #fileID, line: #line))
        let handle = stream(query: query) { result in
            end.continuation.yield(with: result.mapError { $0 })
        } completion: { error in
            end.operationEnded(throwing: error)
        }
        end.onStop { handle.cancelRequest() }
        return stream2
    }

    /// Stream form of `watch(_:onChange:)`: the values its handler receives, in order.
    ///
    /// Calls `onChange` with each new value of `key` until the returned watch is disposed.
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task); it
    /// also ends when the library releases the handler, since no more values can come. When the consumer
    /// stops, it calls `dispose()` on the `Disposable` that `watch(_:onChange:)` returns, which stops the
    /// handler; an end by the library's release stops nothing: the operation is over.
    ///
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func watch(_ key: String) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let end = StreamEnd(continuation)
        let handle = watch(key) { value in
            end.continuation.yield(value)
        }
        end.onStop { handle.dispose() }
        return stream
    }

    /// Stream form of `addObserver(_:closure:)`: the values its handler receives, in order.
    ///
    /// Calls `closure` with the observer, the client and each new status, while the observer
    /// lives (it is held weakly) and until the token is cancelled.
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task); it
    /// also ends when the library releases the handler, since no more values can come. When the consumer
    /// stops, it calls `cancel()` on the `ObservationToken` that `addObserver(_:closure:)` returns, which
    /// stops the handler; an end by the library's release stops nothing: the operation is over.
    ///
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func addObserver<O: AnyObject & Sendable>(_ observer: O) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let end = StreamEnd(continuation)
        let handle = addObserver(observer) { _, _, value in
            end.continuation.yield(value)
        }
        end.onStop { handle.cancel() }
        return stream
    }

    /// Async form of `validate(_:completion:)`.
    ///
    /// Checks `text`, then calls `completion` with the first error found, or `nil`.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func validate(_ text: String) async throws {
        try await withPromise(of: Void.self) { promise in
            validate(text, completion: promise.resolve)
        }
    }
}
