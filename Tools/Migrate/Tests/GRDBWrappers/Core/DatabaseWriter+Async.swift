// Async forms of the completion-handler functions of DatabaseWriter.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Dispatch
import FutureBridge
import GRDB
#if canImport(Combine)
    import Combine
#endif

extension DatabaseWriter {
    /// Async form of `asyncBarrierWriteWithoutTransaction(_:)`.
    ///
    /// Schedules database operations for execution, and returns immediately.
    ///
    /// Database operations are not executed until all currently executing
    /// database accesses performed by the database writer finish executing
    /// (reads and writes). At that point, database operations are executed.
    /// Once they finish, the database writer can proceed with other
    /// database accesses.
    ///
    /// For example:
    ///
    /// ```swift
    /// writer.asyncBarrierWriteWithoutTransaction { dbResult in
    ///     do {
    ///         let db = try dbResult.get()
    ///         try Player(name: "Arthur").insert(db)
    ///         let newPlayerCount = try Player.fetchCount(db)
    ///     } catch {
    ///         // Handle error
    ///     }
    /// }
    /// ```
    ///
    /// Database operations run in the writer dispatch queue, serialized
    /// with all database updates performed by this `DatabaseWriter`.
    ///
    /// The ``Database`` argument to `updates` is valid only during the
    /// execution of the closure. Do not store or return the database connection
    /// for later use.
    ///
    /// - warning: Database operations are not wrapped in a transaction. They
    ///   can see changes performed by concurrent writes or writes performed by
    ///   other processes: two identical requests performed by the `updates`
    ///   closure may not return the same value. Concurrent database accesses
    ///   can see partial updates performed by the `updates` closure. See
    ///   <doc:Concurrency#Rule-2:-Mind-your-transactions> for more information.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameter updates: Runs inside the callback, with the `Database` it receives (which may not leave
    ///   the callback). What it returns is returned; what it throws is thrown. It runs on the thread where
    ///   `asyncBarrierWriteWithoutTransaction(_:)` calls its handler, not in the caller's isolation, and it
    ///   may run after the awaiting task is cancelled (what it returns is then dropped).
    /// - Returns: What the body returns.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func asyncBarrierWriteWithoutTransaction<Output: Sendable>(
        _ updates: @escaping @Sendable (Database) throws -> Output
    ) async throws -> Output {
        try await withPromise(of: Output.self) { promise in
            asyncBarrierWriteWithoutTransaction { result in
                promise.resolve(Result { try updates(result.get()) })
            }
        }
    }

    /// Async form of `spawnConcurrentRead(_:)`.
    ///
    /// Schedules read-only database operations for execution.
    ///
    /// This method must be called from the writer dispatch queue, outside of
    /// any transaction. You'll get a fatal error otherwise.
    ///
    /// Database operations performed by the `value` closure are isolated in a
    /// transaction: they do not see changes performed by eventual concurrent
    /// writes (even writes performed by other processes).
    ///
    /// They see the database in the state left by the last updates performed
    /// by the database writer.
    ///
    /// In the example below, the number of players is fetched concurrently with
    /// the player insertion. Yet it is guaranteed to return zero:
    ///
    /// ```swift
    /// try writer.writeWithoutTransaction { db in
    ///     // Delete all players
    ///     try Player.deleteAll()
    ///
    ///     // Count players concurrently
    ///     writer.spawnConcurrentRead { db in
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
    /// - important: The database operations are executed immediately,
    ///   or asynchronously, depending on the actual class
    ///   of `DatabaseWriter`.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameter value: Runs inside the callback, with the `Database` it receives (which may not leave
    ///   the callback). What it returns is returned; what it throws is thrown. It runs on the thread where
    ///   `spawnConcurrentRead(_:)` calls its handler, not in the caller's isolation, and it may run after
    ///   the awaiting task is cancelled (what it returns is then dropped).
    /// - Returns: What the body returns.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func spawnConcurrentRead<Output: Sendable>(
        _ value: @escaping @Sendable (Database) throws -> Output
    ) async throws -> Output {
        try await withPromise(of: Output.self) { promise in
            spawnConcurrentRead { result in
                promise.resolve(Result { try value(result.get()) })
            }
        }
    }
}
