// Calls that existed before the generated forms, made from async code. The Fixtures
// target compiles them with the generated files beside them, in Swift 6 mode with
// warnings as errors: none may become async, ambiguous or differently typed.
import Foundation
import FutureBridge

/// Code written against the callback API, before any migration.
public enum ExistingCallers {
    /// Synchronous calls inside an async function: they must stay synchronous.
    public static func cancelAndFlush(download: DownloadRequest, store: LegacyStore) async {
        // `cancel(byProducingResumeData:)` has no form named `cancel()`.
        download.cancel()
        // `flush(completion:)` has a default handler: no form named `flush()`.
        store.flush()
        // `startMonitoring(onQueue:onUpdatePerforming:)` keeps its trailing closure.
        ConnectionMonitor().startMonitoring { _ in }
    }

    /// A future kept whole in async code: `cachedText(at:)` gets no same-named async form.
    public static func keepFuture(client: RequestClient, url: URL) async -> Future<String> {
        let future = client.cachedText(at: url)
        return future
    }

    /// A future awaited through its value: `text(at:)` may get its async form.
    public static func awaitFuture(client: RequestClient, url: URL) async throws -> String {
        try await client.text(at: url).value
    }
}
