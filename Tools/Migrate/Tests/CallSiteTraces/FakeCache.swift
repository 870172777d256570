/// A type unrelated to ``FakeAPI`` whose method has the name and labels of
/// `FakeAPI.load(id:completion:)` and no async counterpart (it calls its handler before it
/// returns): a call on it must never become `try await cache.load(id:)`.
public final class FakeCache: Sendable {
    public init() {}

    /// Calls `completion` at once, on the caller's thread, with the cached value.
    public func load(id: Int, completion: (Result<String, any Error>) -> Void) {
        completion(.success("cached \(id)"))
    }
}
