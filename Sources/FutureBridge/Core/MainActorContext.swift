/// Where a main-actor-isolated closure runs: the main actor, reached through the main
/// queue.
///
/// Every FutureBridge API that runs your closure on an executor you name has a twin
/// whose `on:` takes this type, and whose closure is `@MainActor`. Writing `on: .main`
/// picks that twin, so the closure may use main-actor state and call main-actor
/// functions, in a `@MainActor` type, and in a module that is main-actor by default:
///
/// ```swift
/// @MainActor final class ProfileModel {
///     var title = ""
///     func load(_ profile: Future<String>) {
///         profile.onSuccess(on: .main) { name in self.title = name }
///     }
/// }
/// ```
///
/// The closure runs once, on the main actor, which runs on the main queue (on Apple
/// platforms, the main thread; on Linux, whichever thread drains the main queue, which is
/// not the process's first thread once `dispatchMain()` runs). The other executors
/// (``ExecutionContext/inline``, a queue) take `@Sendable` closures, which run on
/// whichever thread the executor uses; a value of type ``ExecutionContext`` (for example
/// `let context: ExecutionContext = .main`) also selects the `@Sendable` form.
public struct MainActorContext: Sendable, Equatable {
    @usableFromInline
    let runsImmediately: Bool

    @inlinable
    init(runsImmediately: Bool) {
        self.runsImmediately = runsImmediately
    }

    /// The main actor, always asynchronously through `DispatchQueue.main`: closures run
    /// in the order they were queued, after the code that registered them.
    public static let main = MainActorContext(runsImmediately: false)

    /// The main actor, at once when the completion already happens on the main queue,
    /// otherwise through `DispatchQueue.main` (see ``ExecutionContext/mainImmediate`` for
    /// the ordering this gives up).
    public static let mainImmediate = MainActorContext(runsImmediately: true)

    /// The executor that reaches the main thread.
    @inlinable
    package var executionContext: ExecutionContext {
        runsImmediately ? .mainImmediate : .main
    }

    /// `body` as a closure that any thread may hold and the main thread calls.
    ///
    /// Only ever called on the main thread (by ``executionContext``), where
    /// `MainActor.assumeIsolated` confirms the isolation that the type promised.
    @inlinable
    package static func bridge<Argument: Sendable>(
        _ body: @escaping @MainActor (Argument) -> Void
    ) -> @Sendable (Argument) -> Void {
        { argument in MainActor.assumeIsolated { body(argument) } }
    }

    /// `body` as a closure that any thread may hold and the main thread calls, for
    /// closures without arguments.
    @inlinable
    static func bridge(_ body: @escaping @MainActor () -> Void) -> @Sendable () -> Void {
        { MainActor.assumeIsolated { body() } }
    }

    /// `body` as a closure that any thread may hold and the main thread calls, for
    /// closures that return a value or throw.
    @inlinable
    static func bridge<Argument: Sendable, Result: Sendable>(
        _ body: @escaping @MainActor (Argument) throws -> Result
    ) -> @Sendable (Argument) throws -> Result {
        { argument in try MainActor.assumeIsolated { try body(argument) } }
    }
}
