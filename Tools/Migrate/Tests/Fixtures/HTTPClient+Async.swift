// Async forms of the completion-handler functions of HTTPClient.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Foundation
import FutureBridge
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPClient {
    /// Async form of `dataTask(with:completionHandler:)`.
    ///
    /// Creates a task that retrieves the contents of a URL, then calls a handler upon
    /// completion. The task starts suspended: call `resume()`.
    ///
    /// Cancelling the awaiting task cancels the `URLSessionDataTask` that
    /// `dataTask(with:completionHandler:)` returns, which is resumed here.
    ///
    /// - Parameters:
    ///   - url: The URL to retrieve.
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func dataTask(with url: URL) async throws -> (Data?, URLResponse?) {
        try await withPromise(of: (Data?, URLResponse?).self) { promise in
            let task = dataTask(with: url, completionHandler: promise.resolve)
            promise.cancelOnRequest { task.cancel() }
            task.resume()  // URLSession tasks start suspended.
        }
    }

    /// Async form of `dataTask(with:completionHandler:)`.
    ///
    /// Creates a task that retrieves the contents of a request, then calls a handler
    /// upon completion. The task starts suspended: call `resume()`.
    ///
    /// Cancelling the awaiting task cancels the `URLSessionDataTask` that
    /// `dataTask(with:completionHandler:)` returns, which is resumed here.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func dataTask(with request: URLRequest) async throws -> (Data?, URLResponse?) {
        try await withPromise(of: (Data?, URLResponse?).self) { promise in
            let task = dataTask(with: request, completionHandler: promise.resolve)
            promise.cancelOnRequest { task.cancel() }
            task.resume()  // URLSession tasks start suspended.
        }
    }

    /// Async form of `uploadTask(with:from:completionHandler:)`.
    ///
    /// Creates a task that uploads data, then calls a handler upon completion.
    ///
    /// Cancelling the awaiting task cancels the `URLSessionUploadTask` that
    /// `uploadTask(with:from:completionHandler:)` returns, which is resumed here.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func uploadTask(
        with request: URLRequest,
        from bodyData: Data?
    ) async throws -> (Data?, URLResponse?) {
        try await withPromise(of: (Data?, URLResponse?).self) { promise in
            let task = uploadTask(with: request, from: bodyData, completionHandler: promise.resolve)
            promise.cancelOnRequest { task.cancel() }
            task.resume()  // URLSession tasks start suspended.
        }
    }
}
