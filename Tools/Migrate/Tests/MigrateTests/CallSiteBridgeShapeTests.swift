import MigrateCore
import Testing

/// Hand-written bridges as public code writes them (`withTaskCancellationHandler` around a
/// continuation that stores the call's handle), on an API with a `Result` handler: the
/// variants that convert, and those left alone with the reason.
@Suite("Call sites: hand-written bridges of real code")
struct CallSiteBridgeShapeTests {
    static let api = SourceInput(
        path: "Client.swift",
        text: """
            public final class ClientTask: Sendable {
                public func cancel() {}
                public func resume() {}
            }

            public final class Client: Sendable {
                @discardableResult
                public func load(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void)
                    -> ClientTask
                { ClientTask() }
            }
            """)

    static func outcome(_ program: String) -> (text: String?, outcome: CallOutcome?) {
        let result = CallMigrator().migrate([SourceInput(path: "Bridge.swift", text: program)], context: [api])
        return (result.files.first?.text, result.entries.first?.outcome)
    }

    @Test("The older `withTaskCancellationHandler(handler:operation:)`, a property receiver: converted")
    func olderLabels() throws {
        let (text, outcome) = Self.outcome(
            """
            struct Repository {
                let client: Client

                func text(id: Int) async throws -> String {
                    nonisolated(unsafe) var task: ClientTask?
                    return try await withTaskCancellationHandler(
                        handler: { task?.cancel() },
                        operation: {
                            try await withCheckedThrowingContinuation { continuation in
                                task = self.client.load(id: id) { continuation.resume(with: $0) }
                            }
                        })
                }
            }
            """)
        guard case .converted = outcome else {
            Issue.record("not converted: \(String(describing: outcome))")
            return
        }
        #expect(
            text == """
                struct Repository {
                    let client: Client

                    func text(id: Int) async throws -> String {
                        return try await self.client.load(id: id)
                    }
                }
                """)
    }

    @Test("Left alone with the reason: a capture list, `task?.resume()` after the call, `onCancel` via a closure")
    func leftAlone() {
        let programs: [(String, LeaveReason, String)] = [
            (
                """
                func text(client: Client) async throws -> String {
                    nonisolated(unsafe) var task: ClientTask?
                    return try await withTaskCancellationHandler {
                        try await withCheckedThrowingContinuation { continuation in
                            task = client.load(id: 1) { result in continuation.resume(with: result) }
                        }
                    } onCancel: { [weak task] in
                        task?.cancel()
                    }
                }
                """, .keptHandle, "captures `[weak task]` when the bridge starts"
            ),
            (
                """
                func text(client: Client) async throws -> String {
                    nonisolated(unsafe) var task: ClientTask?
                    return try await withTaskCancellationHandler {
                        try await withCheckedThrowingContinuation { continuation in
                            task = client.load(id: 1) { result in continuation.resume(with: result) }
                            task?.resume()
                        }
                    } onCancel: {
                        task?.cancel()
                    }
                }
                """, .continuation, "runs other code than the call (`task?.resume()`)"
            ),
            (
                """
                func text(client: Client) async throws -> String {
                    nonisolated(unsafe) var task: ClientTask?
                    let onCancel = { task?.cancel() }
                    return try await withTaskCancellationHandler(
                        operation: {
                            try await withCheckedThrowingContinuation { continuation in
                                task = client.load(id: 1) { result in continuation.resume(with: result) }
                            }
                        },
                        onCancel: { onCancel() })
                }
                """, .keptHandle, "`onCancel` does more than `task?.cancel()`"
            ),
            (
                """
                func text(client: Client) async -> String? {
                    try? await withCheckedThrowingContinuation { continuation in
                        client.load(id: 1) { result in continuation.resume(with: result) }
                    }
                }
                """, .continuation, "awaited under `try?`"
            ),
            (
                """
                func text(client: Client) async throws -> String {
                    try! await withCheckedThrowingContinuation { continuation in
                        client.load(id: 1) { result in continuation.resume(with: result) }
                    }
                }
                """, .continuation, "awaited under `try!`"
            ),
        ]
        for (program, reason, detail) in programs {
            let (text, outcome) = Self.outcome(program)
            #expect(text == nil)
            guard case .leftAlone(let actual, let actualDetail) = outcome else {
                Issue.record("not left alone: \(String(describing: outcome))")
                continue
            }
            #expect(actual == reason, "\(actualDetail)")
            #expect(actualDetail.contains(detail), "\(actualDetail)")
        }
    }

    /// The API's own async function does not cancel the handle: a bridge whose `onCancel`
    /// stopped the operation would no longer stop it once the call is awaited.
    @Test("A bridge over an API whose async function does not cancel the handle: left alone")
    func counterpartThatDoesNotCancel() {
        let api = SourceInput(
            path: "Store.swift",
            text: """
                public final class StoreTask: Sendable {
                    public func cancel() {}
                }

                public final class Store: Sendable {
                    @discardableResult
                    public func fetch(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void)
                        -> StoreTask
                    { StoreTask() }

                    public func fetch(id: Int) async throws -> String { "" }
                }
                """)
        let program = """
            func text(store: Store) async throws -> String {
                nonisolated(unsafe) var task: StoreTask?
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        task = store.fetch(id: 1) { result in continuation.resume(with: result) }
                    }
                } onCancel: {
                    task?.cancel()
                }
            }
            """
        let result = CallMigrator().migrate([SourceInput(path: "Bridge.swift", text: program)], context: [api])
        #expect(result.files.first?.text == nil)
        guard case .leftAlone(let reason, let detail) = result.entries.first?.outcome else {
            Issue.record("not left alone: \(String(describing: result.entries.first?.outcome))")
            return
        }
        #expect(reason == .keptHandle, "\(detail)")
        #expect(detail.contains("does not cancel the operation"), "\(detail)")
    }
}
