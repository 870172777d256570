/// A group of futures seen together, with each child's outcome kept (FutureKit's
/// `FutureBatch`), and a policy for whether one failure fails the batch.
///
/// ```swift
/// func download(_ files: [Future<Data>]) async {
///     let batch = FutureBatch(files, policy: .collect)
///     batch.onEachComplete { index, outcome in print("\(index + 1) of \(files.count):", outcome) }
///     let outcomes = await batch.outcomes.outcome   // one per file, in order
/// }
/// ```
///
/// A cancel request on the batch (``requestCancellation()``, or on ``outcomes`` or a future derived
/// from it) travels to every child still pending.
public struct FutureBatch<Value: Sendable>: Sendable {
    /// What one child's failure (or cancellation) does to the batch.
    public enum FailurePolicy: Sendable, Equatable {
        /// The batch waits for every child; failures are kept in ``FutureBatch/outcomes``.
        case collect
        /// The first child to fail (or be cancelled) fails (or cancels) the batch at
        /// once, and the children still pending get cancel requests.
        case failFast
    }

    /// The children, in the order given.
    public let children: [Future<Value>]
    /// The policy the batch was made with.
    public let policy: FailurePolicy
    /// Every child's outcome, in order, once all have completed; with
    /// ``FailurePolicy/failFast``, the first failure (or cancellation) instead.
    public let outcomes: Future<[Outcome<Value>]>

    /// Creates a batch of `children`.
    ///
    /// - Parameters:
    ///   - children: The futures.
    ///   - policy: What one child's failure does; ``FailurePolicy/collect`` by default.
    public init(_ children: some Collection<Future<Value>>, policy: FailurePolicy = .collect) {
        self.children = Array(children)
        self.policy = policy
        switch policy {
        case .collect:
            outcomes = whenAllSettled(self.children)
        case .failFast:
            outcomes = whenAllSucceed(self.children) { children in children.map { $0.storage.outcome ?? .cancelled } }
        }
    }

    /// The children's values, in order: fails with the first failure in child order, or
    /// is cancelled if a child was (and none failed before it). Each read derives a new
    /// future from ``outcomes``.
    public var values: Future<[Value]> {
        outcomes.map { outcomes in try outcomes.map { try $0.get() } }
    }

    /// Runs `body` with each child's index and outcome as the child completes.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs; ``ExecutionContext/inline`` by default.
    ///   - body: Runs once per child.
    /// - Returns: This batch, so that calls chain.
    @discardableResult
    @_disfavoredOverload
    public func onEachComplete(
        on context: ExecutionContext = .inline,
        _ body: @escaping @Sendable (_ index: Int, _ outcome: Outcome<Value>) -> Void
    ) -> FutureBatch {
        for (index, child) in children.enumerated() {
            child.onComplete(on: context) { body(index, $0) }
        }
        return self
    }

    /// Requests cancellation of every child still pending (each producer decides; a
    /// child another consumer still holds an interest in is not cancelled for it).
    public func requestCancellation() {
        outcomes.requestCancellation()
    }
}
