// Async forms of the completion-handler functions of Skipped.swift, written by
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

extension SkippedAPI {
    /// Async form of `value(completion:)`.
    ///
    /// Two overloads with the same async form: the first one gets it.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func value() async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            value(completion: promise.resolve as @Sendable (Result<Int, any Error>) -> Void)
        }
    }
}

extension CredentialInterceptor {
    /// Async form of `renew(_:for:completion:)`.
    ///
    /// Refreshes `credential`, then calls `completion` with the new one.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Returns: The value the handler receives.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func renew(_ credential: String, for user: String) async throws -> String {
        try await withPromise(of: String.self) { promise in
            renew(credential, for: user, completion: promise.resolve)
        }
    }
}
