import FutureBridgeInternals

/// The read side of a one-shot asynchronous value: a success, a failure, or a
/// cancellation, delivered exactly once to every consumer.
///
/// A future is a cheap, `Sendable` view: copies share the same state. Only its
/// ``Promise`` (or the operator that made it) completes it.
///
/// ```swift
/// struct Document: Decodable, Sendable { var title: String }
/// let data = Data(#"{"title": "Notes"}"#.utf8)
///
/// let future = Future(on: .global()) { try JSONDecoder().decode(Document.self, from: data) }
/// future
///     .onSuccess { document in print("parsed", document.title) }
///     .onFailure { error in print("failed:", error) }
/// let document = try await future.value
/// ```
///
/// ## Threading and futures
/// Every method that runs your code takes an `on:` ``ExecutionContext``; the default
/// is ``ExecutionContext/inline``. Each also has a twin whose `on:` is a
/// ``MainActorContext`` (`on: .main`), which takes a `@MainActor` closure; handlers also
/// take an actor (`on: someActor`). An inline closure runs on the thread that completes
/// the future; if the future is already completed, it runs at once on the thread that
/// registers it. On a future seen through ``hop(to:)`` (and the futures derived from
/// it), inline closures run on that executor instead. Closures never run while the
/// future's lock is held. An inline closure that completes another promise does not run
/// that promise's callbacks nested inside itself: they run right after it returns, so
/// chains of any length use constant stack.
///
/// ## Cancellation
/// A consumer cannot cancel a future for everybody; it can *request* cancellation
/// (``requestCancellation()``, a ``CancellationToken``, a cancelled `Task` awaiting ``value``). The
/// request travels upstream, through derived futures, to the promise that produces
/// the value, whose producer decides what to do. When several consumers hold an
/// interest (tokens, awaiting tasks, derived futures), the request goes upstream only
/// once all of them have withdrawn it.
public struct Future<Value: Sendable>: Sendable {
    @usableFromInline
    let storage: FutureStorage<Value>
    /// Where closures registered with ``ExecutionContext/inline`` run: inline, except on
    /// a view made by ``hop(to:)`` and the futures derived from it.
    @usableFromInline
    let defaultContext: ExecutionContext

    @inlinable
    init(storage: FutureStorage<Value>, defaultContext: ExecutionContext = .inline) {
        self.storage = storage
        self.defaultContext = defaultContext
    }

    /// `context`, with ``ExecutionContext/inline`` standing for this future's default.
    @inlinable @inline(__always)
    func resolved(_ context: ExecutionContext) -> ExecutionContext {
        context.isInline ? defaultContext : context
    }

    /// A future fed by this one, the building block of every operator: `body` runs once,
    /// on `context`, with this future's outcome and the new future to complete. The new
    /// future holds an interest in this one (cancel requests travel here) and inherits
    /// this future's default context.
    @inlinable
    func derive<NewValue>(
        on context: ExecutionContext,
        _ body: @escaping @Sendable (Outcome<Value>, FutureStorage<NewValue>) -> Void
    ) -> Future<NewValue> {
        Future<NewValue>(storage: .derived(from: storage, on: resolved(context), body), defaultContext: defaultContext)
    }

    /// A future already completed with `outcome`.
    ///
    /// - Parameter outcome: The outcome; a failure that is a cancellation becomes
    ///   ``Outcome/cancelled``.
    @inlinable
    public init(outcome: Outcome<Value>) {
        self.init(storage: .completed(outcome))
    }

    /// A future already completed with `value`.
    ///
    /// Disfavored so that a trailing closure (`Future { try await work() }`) always means
    /// ``init(priority:_:)``, never a future whose value is the closure.
    @inlinable @_disfavoredOverload
    public init(value: Value) {
        self.init(outcome: .success(value))
    }

    /// A future already failed with `error` (cancelled, if `error` is a cancellation).
    @inlinable
    public init(error: any Error) {
        self.init(outcome: .failure(error))
    }

    /// A future already cancelled.
    public static var cancelled: Future { Future(outcome: .cancelled) }

    /// Runs `work` on `context` and completes with what it returns or throws
    /// (FutureKit's `Future(.Background) { }`).
    ///
    /// A cancel request that arrives before `work` starts completes the future as
    /// cancelled at once, and `work` never runs. Once `work` has started it runs to the
    /// end, and its result completes the future.
    ///
    /// - Parameters:
    ///   - context: Where `work` runs, for example `.global()` or `.queue(queue)`.
    ///   - work: The work; a thrown cancellation error completes the future as cancelled.
    @_disfavoredOverload
    public init(on context: ExecutionContext, _ work: @escaping @Sendable () throws -> Value) {
        let storage = FutureStorage<Value>.pending()
        let started = OnceFlag()
        storage.addCancelHandler {
            if started.claim() { storage.complete(.cancelled) }
        }
        context.execute {
            guard started.claim() else { return }
            storage.complete(Outcome(catching: work))
        }
        self.init(storage: storage)
    }

    /// The outcome if the future is completed, `nil` while it is pending. Never blocks.
    @inlinable
    public func peek() -> Outcome<Value>? {
        storage.outcome
    }

    /// Whether the future is completed.
    @inlinable
    public var isCompleted: Bool {
        storage.outcome != nil
    }
}

extension Future {
    /// This future, seen from `context`: the closures registered on it, and on the
    /// futures derived from it, with the default ``ExecutionContext/inline`` run on
    /// `context` instead (swift-nio's name for the same hop). Closures given another executor
    /// explicitly still run there.
    ///
    /// ```swift
    /// func report(_ download: Future<Data>) {
    ///     download
    ///         .hop(to: .main)
    ///         .map { data in data.count }                    // on the main queue
    ///         .onSuccess { count in print(count, "bytes") }  // on the main queue
    /// }
    /// ```
    ///
    /// The closures stay `@Sendable` and not isolated, even with `hop(to: .main)`: a
    /// closure that uses main-actor state takes `on: .main` itself, which picks its
    /// `@MainActor` twin.
    ///
    /// The view shares this future's state: completing, awaiting and cancel requests
    /// behave exactly as on this future. Nothing is allocated.
    ///
    /// - Parameter context: Where inline closures of the view run.
    /// - Returns: The same future, with `context` as its default.
    @inlinable
    public func hop(to context: ExecutionContext) -> Future {
        Future(storage: storage, defaultContext: context)
    }
}

extension Future where Value == Void {
    /// A `Future<Void>` already completed successfully.
    public static var succeeded: Future { Future(value: ()) }
}
