import FutureBridgeAtomics

extension Future {
    /// The value, awaited: returns it, throws the future's error, or throws
    /// `CancellationError` if the future was cancelled.
    ///
    /// Cancelling the awaiting `Task` withdraws this awaiter's interest (which becomes a
    /// cancel request upstream if it was the last interest) and throws
    /// `CancellationError` at once, even if the producer keeps going; other awaiters
    /// and handlers are unaffected. The interest is taken when the task suspends here: a
    /// task that is already cancelled does not suspend, and throws `CancellationError`
    /// with the same effect upstream; a request made before the task gets here finds no
    /// interest of the task's. A future that is already completed returns its value without
    /// suspending, even in a cancelled task.
    ///
    /// The getter runs in the caller's isolation (`nonisolated(nonsending)`): awaited from
    /// an actor, it suspends and resumes there, with no hop through the global executor.
    @inlinable
    nonisolated(nonsending) public var value: Value {
        get async throws {
            try await outcome.get()
        }
    }

    /// The outcome, awaited; never throws.
    ///
    /// Cancelling the awaiting `Task` returns ``Outcome/cancelled`` for this awaiter at
    /// once (see ``value`` for what the request does upstream). Runs in the caller's
    /// isolation, like ``value``.
    @inlinable
    nonisolated(nonsending) public var outcome: Outcome<Value> {
        get async {
            // Checked first: a completed future then costs one lock round trip, where the
            // continuation and the cancellation handler would cost some 15 times more.
            if let outcome = storage.outcome { return outcome }
            return await storage.awaitOutcome()
        }
    }

    /// The outcome as a `Result`, awaited; cancellation is
    /// `.failure(CancellationError())`. Behaves like ``outcome`` under cancellation.
    nonisolated(nonsending) public var result: Result<Value, any Error> {
        get async {
            await outcome.result
        }
    }

    /// Runs `operation` in a new unstructured `Task` and completes with how it ends.
    ///
    /// A cancel request on this future (``requestCancellation()``, the last token, the last awaiting
    /// task cancelled) cancels the task: `operation` sees `Task.isCancelled`, and if it
    /// throws `CancellationError` (or another cancellation error) the future ends
    /// cancelled. If it returns a value anyway, the future succeeds with it.
    ///
    /// <!-- fragment: app -->
    /// ```swift
    /// let future = Future { try await api.download(url) }
    /// ```
    ///
    /// A trailing closure with no `await` in it is not async, and `Future { 42 }` would
    /// read as ``init(value:)`` with a closure value; write synchronous work as
    /// ``init(on:_:)-(ExecutionContext,_)``, or mark the closure `{ () async in ... }`.
    ///
    /// Like `Task { }`, the closure inherits the caller's actor: written in a `@MainActor`
    /// method it runs on the main actor and may use main-actor state; written in
    /// non-isolated code it runs on the global concurrent executor.
    ///
    /// - Parameters:
    ///   - priority: The priority of the task; inherited when `nil`.
    ///   - operation: The async work; runs in its own isolation (by default the caller's).
    public init(
        priority: TaskPriority? = nil,
        @_inheritActorContext _ operation: sending @escaping @isolated(any) () async throws -> Value
    ) {
        let storage = FutureStorage<Value>.pending()
        storage.completeByRunning(priority: priority, operation)
        self.init(storage: storage)
    }
}

extension Promise {
    /// Completes the future with how `operation` ends, running it in a new `Task`.
    ///
    /// From then on only `operation` completes the future (later ``succeed(_:)`` and
    /// the like return `false`). A cancel request on the future cancels the task (in
    /// addition to the handlers registered with ``onCancellationRequest(isolation:_:)``);
    /// a request that reached the promise before this call cancels the task before
    /// `operation` starts, so `operation` sees `Task.isCancelled` from its first line.
    ///
    /// Like `Task { }`, `operation` inherits the caller's actor (see
    /// ``Future/init(priority:_:)``).
    ///
    /// - Parameters:
    ///   - priority: The priority of the task; inherited when `nil`.
    ///   - operation: The async work; a thrown cancellation error completes the future as
    ///     cancelled.
    /// - Returns: `false` if the future was already completed or follows another
    ///   future; `operation` is then not started.
    @discardableResult
    public func complete(
        priority: TaskPriority? = nil,
        @_inheritActorContext running operation: sending @escaping @isolated(any) () async throws -> Value
    ) -> Bool {
        guard storage.withLock({ $0.claimForFollowing() }) else { return false }
        fb_u32_fetch_or_relaxed(promiseWord, Self.settledBit)
        storage.completeByRunning(priority: priority, operation)
        return true
    }
}
