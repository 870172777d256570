// Async forms of the completion-handler functions of RequestClient.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Dispatch
import Foundation
import FutureBridge
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

extension Request {
    /// Stream form of `downloadProgress(queue:closure:)`: the values its handler receives, in order.
    ///
    /// Registers a handler for the download's progress, called on `queue` each time it
    /// advances.
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task), when
    /// the request finishes (`DataRequest.responseString(queue:completionHandler:)` is called for a
    /// `DataRequest`, `StreamRequest.responseStream(on:stream:)` reports `.complete` for a `StreamRequest`;
    /// that end cancels nothing; a request of another class ends only when the library releases the handler
    /// or its consumer stops); it also ends when the library releases the handler, since no more values can
    /// come. When the consumer stops, it calls `cancel()` on the `Request` that
    /// `downloadProgress(queue:closure:)` returns, which stops the handler; an end by the finish event or
    /// the library's release stops nothing: the operation is over. Adding the finish handler, like any
    /// response handler, starts a request that waits for its first one.
    ///
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func downloadProgress() -> AsyncThrowingStream<Double, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Double, any Error>.makeStream()
        let end = StreamEnd(continuation)
        let queue2 = DispatchQueue(label: "Request.downloadProgress")
        let handle = downloadProgress(queue: queue2) { value in
            end.continuation.yield(value)
        }
        // The request's end ends the stream.
        if let request = handle as? DataRequest {
            _ = request.responseString(queue: queue2) { _ in
                end.operationEnded()
            }
        } else if let request = handle as? StreamRequest {
            _ = request.responseStream(on: queue2) { value in
                if case .complete = value.event {
                    end.operationEnded()
                }
            }
        }
        end.onStop { [weak handle] in _ = handle?.cancel() }
        return stream
    }
}

extension DataRequest {
    /// Async form of `responseString(queue:completionHandler:)`.
    ///
    /// Adds a handler called once the request has finished, with the response decoded as
    /// UTF-8 text.
    ///
    /// Cancelling the awaiting task calls `cancel()` on the `DataRequest` that
    /// `responseString(queue:completionHandler:)` returns.
    ///
    /// - Returns: The success of the `result` that the handler receives.
    /// - Throws: The failure of the `result` that the handler receives; `CancellationError` when the
    ///   awaiting task is cancelled; `AbandonedPromiseError` when the handler is released without being
    ///   called.
    @discardableResult
    public nonisolated(nonsending) func responseString() async throws -> String {
        try await withPromise(of: String.self) { promise in
            let handle = responseString(queue: .global()) { response in
                promise.resolve(response.result)
            }
            promise.cancelOnRequest { _ = handle.cancel() }
        }
    }
}

extension RequestClient {
    /// Async form of `text(at:)`: awaits the future it returns.
    ///
    /// The text at `url`, as a future: a cancel request cancels the request.
    ///
    /// Cancelling the awaiting task withdraws its interest in the future: the promise that completes it
    /// gets a cancel request when nothing else waits for it.
    ///
    /// - Returns: The future's value.
    /// - Throws: The future's error; `CancellationError` when the future is cancelled or the awaiting task
    ///   is.
    public nonisolated(nonsending) func text(at url: URL) async throws -> String {
        try await text(at: url).value
    }

    /// Async form of `task(_:completion:)`.
    ///
    /// A request whose parameter has the function's name: the form calls `self.task(_:)`.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func task(_ task: String) async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            self.task(task, completion: promise.resolve)
        }
    }

    /// Stream form of `observeStatus(_:)`: the values its handler receives, in order.
    ///
    /// Observes the status feed: `handler` is called for every status published, until the
    /// observation is invalidated.
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task); it
    /// also ends when the library releases the handler, since no more values can come. When the consumer
    /// stops, it calls `invalidate()` on the `StatusObservation` that `observeStatus(_:)` returns, which
    /// stops the handler; an end by the library's release stops nothing: the operation is over.
    ///
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func observeStatus() -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let end = StreamEnd(continuation)
        let handle = observeStatus { value in
            end.continuation.yield(value)
        }
        end.onStop { handle.invalidate() }
        return stream
    }

    /// Stream form of `observeChannel(_:_:)`: the values its handler receives, in order.
    ///
    /// Observes the feed of `channel`, which must exist: only `"status"` does here.
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task); it
    /// also ends when the library releases the handler, since no more values can come. When the consumer
    /// stops, it calls `invalidate()` on the `StatusObservation` that `observeChannel(_:_:)` returns, which
    /// stops the handler; an end by the library's release stops nothing: the operation is over.
    ///
    /// - Parameters:
    ///   - channel: The feed to observe.
    /// - Throws: `RequestError` when the channel does not exist (no handler is registered).
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func observeChannel(_ channel: String) throws -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let end = StreamEnd(continuation)
        let handle = try observeChannel(channel) { value in
            end.continuation.yield(value)
        }
        end.onStop { handle.invalidate() }
        return stream
    }

    /// Async form of `makeDraft(title:completion:)`.
    ///
    /// Makes a draft of `title`, on a queue of the client's.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func makeDraft(title: String) async throws -> sending Draft {
        try await withPromise(of: Draft.self) { promise in
            makeDraft(title: title, completion: promise.resolve)
        }
    }
}

extension ConnectionMonitor {
    /// Stream form of `startMonitoring(onQueue:onUpdatePerforming:)`: the values its handler receives, in
    /// order.
    ///
    /// Starts calling `handler` on `queue` with each change, until `stopMonitoring()`.
    ///
    /// The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task); it
    /// also ends when the library releases the handler, since no more values can come. When the consumer
    /// stops, it calls `stopMonitoring()`, which stops the handler; an end by the library's release stops
    /// nothing: the operation is over.
    ///
    /// - Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet.
    public func startMonitoring() -> AsyncThrowingStream<Result, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Result, any Error>.makeStream()
        let end = StreamEnd(continuation)
        _ = startMonitoring(onQueue: DispatchQueue(label: "ConnectionMonitor.startMonitoring")) { value in
            end.continuation.yield(value)
        }
        end.onStop { self.stopMonitoring() }
        return stream
    }
}
