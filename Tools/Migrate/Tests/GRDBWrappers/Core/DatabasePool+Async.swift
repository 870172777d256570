// Async forms of the completion-handler functions of DatabasePool.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Dispatch
import Foundation
import FutureBridge
import GRDB
#if os(iOS)
    import UIKit
#endif

extension DatabasePool {
    /// Async form of `asyncConcurrentRead(_:)`.
    ///
    /// Performs an asynchronous read access.
    ///
    /// This method must be called from the writer dispatch queue, outside of
    /// any transaction. You'll get a fatal error otherwise.
    ///
    /// The `value` function is guaranteed to see the database in the last
    /// committed state at the moment this method is called. Eventual
    /// concurrent database updates are not visible from the function.
    ///
    /// This method returns as soon as the isolation guarantee described above
    /// has been established.
    ///
    /// In the example below, the number of players is fetched concurrently with
    /// the player insertion. Yet it is guaranteed to be zero:
    ///
    /// ```swift
    /// try writer.asyncWriteWithoutTransaction { db in
    ///     // Delete all players
    ///     try Player.deleteAll()
    ///
    ///     // Count players concurrently
    ///     writer.asyncConcurrentRead { dbResult in
    ///         do {
    ///             let db = try dbResult.get()
    ///             // Guaranteed to be zero
    ///             let count = try Player.fetchCount(db)
    ///         } catch {
    ///             // Handle error
    ///         }
    ///     }
    ///
    ///     // Insert a player
    ///     try Player(...).insert(db)
    /// }
    /// ```
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameter value: Runs inside the callback, with the `Database` it receives (which may not leave
    ///   the callback). What it returns is returned; what it throws is thrown. It runs on the thread where
    ///   `asyncConcurrentRead(_:)` calls its handler, not in the caller's isolation, and it may run after
    ///   the awaiting task is cancelled (what it returns is then dropped).
    /// - Returns: What the body returns.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func asyncConcurrentRead<Output: Sendable>(
        _ value: @escaping @Sendable (Database) throws -> Output
    ) async throws -> Output {
        try await withPromise(of: Output.self) { promise in
            asyncConcurrentRead { result in
                promise.resolve(Result { try value(result.get()) })
            }
        }
    }
}
