// Async forms of the completion-handler functions of ValueObservationScheduler.swift, written by
// futurebridge-migrate on FutureBridge's bridge: a handler released without being called
// fails with AbandonedPromiseError (naming the line below that made the promise), a
// second call is ignored and reported to Diagnostics, and a cancelled task throws
// CancellationError at once (and cancels the operation's handle, where there is one).
// Edit freely: the tool never overwrites an existing file.

import Dispatch
import Foundation
import FutureBridge
import GRDB

extension ValueObservationScheduler {
    /// Async form of `schedule(_:)`.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameter action: Runs inside the callback. What it returns is returned; what it throws is thrown.
    ///   It runs on the thread where `schedule(_:)` calls its handler, not in the caller's isolation, and
    ///   it may run after the awaiting task is cancelled (what it returns is then dropped).
    /// - Returns: What the body returns.
    /// - Throws: `CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the
    ///   handler is released without being called.
    public nonisolated(nonsending) func schedule<Output: Sendable>(
        _ action: @escaping @Sendable () throws -> Output
    ) async throws -> Output {
        try await withPromise(of: Output.self) { promise in
            schedule {
                promise.resolve(Result { try action() })
            }
        }
    }
}

extension ValueObservationMainActorScheduler {
    /// Async form of `scheduleOnMainActor(_:)`.
    ///
    /// Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then
    /// dropped.
    ///
    /// - Parameter action: Runs inside the callback. What it returns is returned; what it throws is thrown.
    ///   It runs on `@MainActor`, where `scheduleOnMainActor(_:)` calls its handler, and it may run after
    ///   the awaiting task is cancelled (what it returns is then dropped).
    /// - Returns: What the body returns.
    /// - Throws: `CancellationError` when the awaiting task is cancelled; `AbandonedPromiseError` when the
    ///   handler is released without being called.
    public nonisolated(nonsending) func scheduleOnMainActor<Output: Sendable>(
        _ action: @escaping @MainActor () throws -> Output
    ) async throws -> Output {
        try await withPromise(of: Output.self) { promise in
            scheduleOnMainActor {
                promise.resolve(Result { try action() })
            }
        }
    }
}
