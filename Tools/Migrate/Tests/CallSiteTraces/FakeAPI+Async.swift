// Async forms of the completion-handler functions of FakeAPI.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Dispatch
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

extension FakeAPI {
    /// Async form of `load(id:completion:)`.
    ///
    /// Loads a text: a `Result` handler, and a handle that cancels the load.
    ///
    /// Cancelling the awaiting task calls `cancel()` on the `FakeTask` that `load(id:completion:)` returns.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    @discardableResult
    public nonisolated(nonsending) func load(id: Int) async throws -> String {
        try await withPromise(of: String.self) { promise in
            let handle = load(id: id, completion: promise.resolve)
            promise.cancelOnRequest { handle.cancel() }
        }
    }

    /// Async form of `request(id:completion:)`.
    ///
    /// Requests a text: a `Result` handler, and a handle whose `cancel()` calls the handler
    /// with `CancellationError` (as `URLSessionTask`'s calls it with `URLError.cancelled`).
    ///
    /// Cancelling the awaiting task calls `cancel()` on the `FakeTask` that `request(id:completion:)`
    /// returns.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    @discardableResult
    public nonisolated(nonsending) func request(id: Int) async throws -> String {
        try await withPromise(of: String.self) { promise in
            let handle = request(id: id, completion: promise.resolve)
            promise.cancelOnRequest { handle.cancel() }
        }
    }

    /// Async form of `fetch(id:completion:)`.
    ///
    /// Fetches a text: a `(T?, Error?)` handler.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func fetch(id: Int) async throws -> String {
        try await withPromise(of: String.self) { promise in
            fetch(id: id, completion: promise.resolve)
        }
    }

    /// Async form of `save(_:completion:)`.
    ///
    /// Saves a text: an `(Error?)` handler.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func save(_ text: String) async throws {
        try await withPromise(of: Void.self) { promise in
            save(text, completion: promise.resolve)
        }
    }

    /// Async form of `download(id:callbackQueue:completion:)`.
    ///
    /// Downloads a text: its handler runs on `callbackQueue`, the main queue unless told otherwise.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func download(id: Int) async throws -> String {
        try await withPromise(of: String.self) { promise in
            download(id: id, callbackQueue: .global(), completion: promise.resolve)
        }
    }

    /// Async form of `show(id:completion:)`.
    ///
    /// Shows a text: a main-actor handler, called on the main queue.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func show(id: Int) async throws -> String {
        try await withPromise(of: String.self) { promise in
            show(id: id, completion: promise.resolve)
        }
    }

    /// Async form of `lookup(id:completion:)`.
    ///
    /// Looks a text up in memory: a handler that is not `@Sendable` (as a library of Swift 5
    /// mode declares it), called before `lookup` returns, on the caller's thread. `.dropped`
    /// releases it; `.error` fails; the other outcomes deliver the value "v" once.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func lookup(id: Int) async throws -> String {
        try await withPromise(of: String.self) { promise in
            lookup(id: id, completion: promise.resolve)
        }
    }

    /// Async form of `measure(_:completion:)`.
    ///
    /// Measures a text: a handler with a value and no error (`.error` delivers a value all the same).
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: `CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the
    ///   handler is released without being called.
    public nonisolated(nonsending) func measure(_ text: String) async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            measure(text, completion: promise.resolve)
        }
    }

    /// Async form of `ping(completion:)`.
    ///
    /// Pings: a handler with nothing (`.error` calls it all the same).
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Throws: `CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the
    ///   handler is released without being called.
    public nonisolated(nonsending) func ping() async throws {
        try await withPromise(of: Void.self) { promise in
            ping(completion: promise.resolve)
        }
    }

    /// Stream form of `events(id:onEvent:completion:)`: the values its handler receives, in order.
    ///
    /// Reports a job's events: `onEvent` with 1 and 2, then `completion` (with the error that ended the
    /// job, if any: `.error` reports 1, then fails).
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task), when
    /// the operation ends (`completion` is called: the loop then throws the error it receives, if any);
    /// when the library releases the handlers without calling `completion`, the loop throws
    /// `AbandonedPromiseError`. When the consumer stops, it calls `cancel()` on the `FakeTask` that
    /// `events(id:onEvent:completion:)` returns, which stops the handler; an end by `completion` or the
    /// library's release stops nothing: the operation is over.
    ///
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func events(id: Int) -> AsyncThrowingStream<Int, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        let end = StreamEnd(continuation, abandoned: AbandonedPromiseError(fileID: #fileID, line: #line))
        let handle = events(id: id) { value in
            end.continuation.yield(value)
        } completion: { error in
            end.operationEnded(throwing: error)
        }
        end.onStop { handle.cancel() }
        return stream
    }
}
