// Async forms of the completion-handler functions of DatabaseReader.swift, written by
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

extension DatabaseReader {
    /// Async form of `asyncRead(_:)`.
    ///
    /// Schedules read-only database operations for execution, and
    /// returns immediately.
    ///
    /// For example:
    ///
    /// ```swift
    /// try reader.asyncRead { dbResult in
    ///     do {
    ///         let db = try dbResult.get()
    ///         let count = try Player.fetchCount(db)
    ///     } catch {
    ///         // Handle error
    ///     }
    /// }
    /// ```
    ///
    /// Database operations are isolated in a transaction: they do not see
    /// changes performed by eventual concurrent writes (even writes performed
    /// by other processes).
    ///
    /// The database connection is read-only: attempts to write throw a
    /// ``DatabaseError`` with resultCode `SQLITE_READONLY`.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameter value: Runs inside the callback, with the `Database` it receives (which may not leave
    ///   the callback). What it returns is returned; what it throws is thrown. It runs on the thread where
    ///   `asyncRead(_:)` calls its handler, not in the caller's isolation, and it may run after the
    ///   awaiting task is cancelled (what it returns is then dropped).
    /// - Returns: What the body returns.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func asyncRead<Output: Sendable>(
        _ value: @escaping @Sendable (Database) throws -> Output
    ) async throws -> Output {
        try await withPromise(of: Output.self) { promise in
            asyncRead { result in
                promise.resolve(Result { try value(result.get()) })
            }
        }
    }

    /// Async form of `asyncUnsafeRead(_:)`.
    ///
    /// Schedules database operations for execution, and returns immediately.
    ///
    /// This method is "unsafe" because the database reader does nothing more
    /// than providing a database connection. When you use this method, you
    /// become responsible for the thread-safety of your application, and
    /// responsible for database accesses performed by other processes. See
    /// <doc:Concurrency#Safe-and-Unsafe-Database-Accesses> for
    /// more information.
    ///
    /// For example:
    ///
    /// ```swift
    /// reader.asyncUnsafeRead { dbResult in
    ///     do {
    ///         let db = try dbResult.get()
    ///         let count = try Player.fetchCount(db)
    ///     } catch {
    ///         // handle error
    ///     }
    /// }
    /// ```
    ///
    /// - warning: Database operations may not be wrapped in a transaction. They
    ///   may see changes performed by concurrent writes or writes performed by
    ///   other processes: two identical requests performed by the `value`
    ///   closure may not return the same value.
    /// - warning: Attempts to write in the database may succeed.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameter value: Runs inside the callback, with the `Database` it receives (which may not leave
    ///   the callback). What it returns is returned; what it throws is thrown. It runs on the thread where
    ///   `asyncUnsafeRead(_:)` calls its handler, not in the caller's isolation, and it may run after the
    ///   awaiting task is cancelled (what it returns is then dropped).
    /// - Returns: What the body returns.
    /// - Throws: The error the handler receives; `CancellationError` when the awaiting task is cancelled;
    ///   `AbandonedPromiseError` when the handler is released without being called.
    public nonisolated(nonsending) func asyncUnsafeRead<Output: Sendable>(
        _ value: @escaping @Sendable (Database) throws -> Output
    ) async throws -> Output {
        try await withPromise(of: Output.self) { promise in
            asyncUnsafeRead { result in
                promise.resolve(Result { try value(result.get()) })
            }
        }
    }
}
