/// A type unrelated to ``FakeAPI`` whose method has the name and labels of
/// `FakeAPI.load(id:completion:)` and no async counterpart (it calls its handler before it
/// returns): a call on it must never become `try await cache.load(id:)`. And a `(Bool)`
/// handler beside its own `async throws` function, which throws where `false` was passed.
public final class FakeCache: Sendable {
    public init() {}

    /// Calls `completion` at once, on the caller's thread, with the cached value.
    public func load(id: Int, completion: (Result<String, any Error>) -> Void) {
        completion(.success("cached \(id)"))
    }

    /// Calls `completion` at once with `true`: stored.
    public func store(_ value: String, completion: @escaping @Sendable (Bool) -> Void) {
        completion(true)
    }

    /// Stores `value`; throws where ``store(_:completion:)`` passes `false` (never, here).
    public func store(_ value: String) async throws {}
}
