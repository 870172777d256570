import Foundation
import FutureBridge

/// B11: what a form written by the migration assistant costs. A callback API that
/// returns a cancel handle and completes on a queue of its own, awaited from a task
/// through the form `futurebridge-migrate` writes (`withPromise`, `promise.resolve`,
/// `cancelOnRequest`), next to the careful hand-written form (a checked continuation
/// inside a task cancellation handler that reaches the handle through a lock).
enum MigratedFormCases {
    /// The API's cancel handle. No request is made in the benchmark; both forms keep and
    /// release one handle per call, as real code does.
    final class Handle: @unchecked Sendable {  // `cancelled` only under `lock`
        private let lock = NSLock()
        private var cancelled = false

        func cancel() { lock.withLock { cancelled = true } }
    }

    /// Where the API completes: a serial queue, not the awaiting task's thread.
    static let completionQueue = DispatchQueue(label: "benchmarks.b11.api")

    /// The callback API: completes `completion` with `id` on ``completionQueue``.
    static func load(id: Int, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Handle {
        completionQueue.async { completion(.success(id)) }
        return Handle()
    }

    /// The async form as the migration assistant writes it (`nonisolated(nonsending)`, as
    /// the compiler imports completion-handler methods, SE-0461).
    nonisolated(nonsending) static func loadMigrated(id: Int) async throws -> Int {
        try await withPromise(of: Int.self) { promise in
            let handle = load(id: id, completion: promise.resolve)
            promise.cancelOnRequest { handle.cancel() }
        }
    }

    /// The handle of one call, for a cancellation handler that may run before the call
    /// has returned it (then the handle is cancelled as soon as it is there). Written
    /// without FutureBridge, as the hand-written form would be.
    final class HandleSlot: @unchecked Sendable {  // `handle` and `cancelled` only under `lock`
        private let lock = NSLock()
        private var handle: Handle?
        private var cancelled = false

        func store(_ handle: Handle) {
            let cancelNow = lock.withLock {
                self.handle = handle
                return cancelled
            }
            if cancelNow { handle.cancel() }
        }

        func cancel() {
            let handle = lock.withLock {
                cancelled = true
                return self.handle
            }
            handle?.cancel()  // outside the lock, as the handle may call back
        }
    }

    /// The async form a careful engineer writes by hand, with the same isolation.
    nonisolated(nonsending) static func loadByHand(id: Int) async throws -> Int {
        let slot = HandleSlot()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                slot.store(load(id: id) { continuation.resume(with: $0) })
            }
        } onCancel: {
            slot.cancel()
        }
    }

    static func b11Migrated(_ n: Int) async {
        for index in 0..<n { blackHole(try? await loadMigrated(id: index)) }
    }

    static func b11ByHand(_ n: Int) async {
        for index in 0..<n { blackHole(try? await loadByHand(id: index)) }
    }
}
