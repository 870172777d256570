/// Handlers isolated to an actor of your own: `on: actor` takes a closure whose first
/// parameter is the actor, `isolated`, so the closure may use the actor's state
/// synchronously.
///
/// ```swift
/// actor Inbox {
///     var messages: [String] = []
///     func listen(to message: Future<String>) {
///         message.onSuccess(on: self) { inbox, text in inbox.messages.append(text) }
///     }
/// }
/// ```
///
/// The closure runs once, on `actor`, in a task that the future's completion starts (so it
/// never blocks the completing thread). Handlers given to one actor run in no guaranteed
/// order relative to each other or to other work queued on the actor; for ordered
/// delivery, handle on the completing thread (``ExecutionContext/inline``) and call into
/// the actor from there, or use the main actor (`on: .main`). A handler neither prevents
/// nor makes cancel requests.
extension Future {
    /// Runs `body` on `actor` with the outcome once the future completes.
    ///
    /// - Parameters:
    ///   - actor: The actor `body` is isolated to.
    ///   - body: Receives the actor and the outcome; runs exactly once.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func onComplete<Isolation: Actor>(
        on actor: Isolation, _ body: @escaping @Sendable (isolated Isolation, Outcome<Value>) -> Void
    ) -> Future {
        onComplete { outcome in Task { await body(actor, outcome) } }
    }

    /// Runs `body` on `actor` with the value if the future succeeds.
    ///
    /// - Parameters:
    ///   - actor: The actor `body` is isolated to.
    ///   - body: Receives the actor and the value; runs at most once.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func onSuccess<Isolation: Actor>(
        on actor: Isolation, _ body: @escaping @Sendable (isolated Isolation, Value) -> Void
    ) -> Future {
        onSuccess { value in Task { await body(actor, value) } }
    }

    /// Runs `body` on `actor` with the error if the future fails (a cancellation is not a
    /// failure).
    ///
    /// - Parameters:
    ///   - actor: The actor `body` is isolated to.
    ///   - body: Receives the actor and the error; runs at most once.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func onFailure<Isolation: Actor>(
        on actor: Isolation, _ body: @escaping @Sendable (isolated Isolation, any Error) -> Void
    ) -> Future {
        onFailure { error in Task { await body(actor, error) } }
    }

    /// Runs `body` on `actor` if the future ends cancelled.
    ///
    /// - Parameters:
    ///   - actor: The actor `body` is isolated to.
    ///   - body: Receives the actor; runs at most once.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func onCancel<Isolation: Actor>(
        on actor: Isolation, _ body: @escaping @Sendable (isolated Isolation) -> Void
    ) -> Future {
        onCancel { Task { await body(actor) } }
    }

    /// Runs `body` on `actor` once the future completes, whatever the outcome.
    ///
    /// - Parameters:
    ///   - actor: The actor `body` is isolated to.
    ///   - body: Receives the actor; runs exactly once.
    /// - Returns: This future, so that handlers chain.
    @discardableResult
    public func always<Isolation: Actor>(
        on actor: Isolation, _ body: @escaping @Sendable (isolated Isolation) -> Void
    ) -> Future {
        always { Task { await body(actor) } }
    }
}
