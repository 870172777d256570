// Async forms of the completion-handler functions of DatabaseMigrator.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Foundation
import FutureBridge
import GRDB
#if canImport(Combine)
    import Combine
#endif

extension DatabaseMigrator {
    /// Async form of `asyncMigrate(_:completion:)`.
    ///
    /// Schedules unapplied migrations for execution, and returns immediately.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - parameter writer: A DatabaseWriter.
    /// - Parameter completion: Runs inside the callback, with the `Database` it receives (which may not
    ///   leave the callback). What it returns is returned; what it throws is thrown. It runs on the thread
    ///   where `asyncMigrate(_:completion:)` calls its handler, not in the caller's isolation, and it may
    ///   run after the awaiting task is cancelled (what it returns is then dropped).
    /// - Returns: What the body returns.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func asyncMigrate<Output: Sendable>(
        _ writer: any DatabaseWriter,
        completion: @escaping @Sendable (Database) throws -> Output
    ) async throws -> Output {
        try await withPromise(of: Output.self) { promise in
            asyncMigrate(writer) { result in
                promise.resolve(Result { try completion(result.get()) })
            }
        }
    }
}
