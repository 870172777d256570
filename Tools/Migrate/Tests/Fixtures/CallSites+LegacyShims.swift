// Completion-handler forms of the async functions of CallSites.swift, for callers not
// migrated yet, written by futurebridge-migrate: each runs the function in a task
// (FutureBridge's Future), calls the handler exactly once, and returns the
// CancellationToken that cancels the task. Edit freely: the tool never overwrites an
// existing file.

import Foundation
import FutureBridge

extension ExistingCallers {
    /// Completion-handler form of `cancelAndFlush(download:store:)`, for callers not migrated to async yet.
    ///
    /// Synchronous calls inside an async function: they must stay synchronous.
    ///
    /// - Parameter completion: Called once, when the function returns.
    /// - Returns: A token whose `cancel()` cancels the task that runs `cancelAndFlush(download:store:)`.
    @discardableResult
    public static func cancelAndFlush(
        download: DownloadRequest,
        store: LegacyStore,
        completion: @escaping @Sendable () -> Void
    ) -> CancellationToken {
        Future<Void> {
            await self.cancelAndFlush(download: download, store: store)
        }
        .deliver(on: .inline, to: completion)
    }

    /// Completion-handler form of `keepFuture(client:url:)`, for callers not migrated to async yet.
    ///
    /// A future kept whole in async code: `cachedText(at:)` gets no same-named async form.
    ///
    /// - Parameter completion: Called once with the value (the function cannot fail, so a cancelled task
    ///   delivers it too).
    /// - Returns: A token whose `cancel()` cancels the task that runs `keepFuture(client:url:)`.
    @discardableResult
    public static func keepFuture(
        client: RequestClient,
        url: URL,
        completion: @escaping @Sendable (Future<String>) -> Void
    ) -> CancellationToken {
        Future<Future<String>> { await self.keepFuture(client: client, url: url) }.deliver(on: .inline, to: completion)
    }

    /// Completion-handler form of `awaitFuture(client:url:)`, for callers not migrated to async yet.
    ///
    /// A future awaited through its value: `text(at:)` may get its async form.
    ///
    /// - Parameter completion: Called once, with the value or the error; with `CancellationError` if the
    ///   token cancelled the task and the function stopped.
    /// - Returns: A token whose `cancel()` cancels the task that runs `awaitFuture(client:url:)`.
    @discardableResult
    public static func awaitFuture(
        client: RequestClient,
        url: URL,
        completion: @escaping @Sendable (Result<String, any Error>) -> Void
    ) -> CancellationToken {
        Future<String> { try await self.awaitFuture(client: client, url: url) }.deliver(on: .inline, to: completion)
    }
}
