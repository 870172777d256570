// Completion-handler forms of the async functions of RequestClient.swift, for callers not
// migrated yet, written by futurebridge-migrate: each runs the function in a task
// (FutureBridge's Future), calls the handler exactly once, and returns the
// CancellationToken that cancels the task. Edit freely: the tool never overwrites an
// existing file.

import Dispatch
import Foundation
import FutureBridge
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RequestClient {
    /// Completion-handler form of `status(of:)`, for callers not migrated to async yet.
    ///
    /// The status code of `url`.
    ///
    /// - Parameter completion: Called once, with the value or the error; with `CancellationError` if the
    ///   token cancelled the task and the function stopped.
    /// - Returns: A token whose `cancel()` cancels the task that runs `status(of:)`.
    @discardableResult
    public func status(
        of url: URL,
        completion: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) -> CancellationToken {
        Future<Int> { try await self.status(of: url) }.deliver(on: .inline, to: completion)
    }
}
