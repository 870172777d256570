import Synchronization

/// The bookkeeping of a future combined from several inputs (`whenAll`, `whenAny`,
/// `race`...): its storage, the interests it holds in its inputs, and how many inputs
/// are still pending.
///
/// The combined future holds one interest in every input. Its cancel request, and its
/// own completion, withdraw all of them at once (at most once) with a cancel vote: a
/// request to the inputs still pending (the losers of a race, the rest of a failed
/// `whenAll`) and a no-op for those already completed.
final class Combination<Output: Sendable>: Sendable {
    let output = FutureStorage<Output>.pending()
    private let inputs: [any InterestCounting]
    private let withdrawn = OnceFlag()
    private let remaining: Atomic<Int>

    init(inputs: [any InterestCounting]) {
        self.inputs = inputs
        self.remaining = Atomic(inputs.count)
        for input in inputs { input.addInterest() }
        output.addCancelHandler { [self] in withdrawInterests() }
    }

    var future: Future<Output> { Future(storage: output) }

    /// Counts one more completed input; `true` for the last one.
    func inputCompleted() -> Bool {
        remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0
    }

    /// Completes the combined future (the first call wins) and withdraws its interests.
    func complete(_ outcome: Outcome<Output>) {
        output.complete(outcome)
        withdrawInterests()
    }

    private func withdrawInterests() {
        guard withdrawn.claim() else { return }
        for input in inputs { input.withdrawInterest(cancelling: true) }
    }
}

extension FutureStorage {
    /// The value of a future known to have succeeded.
    var successValue: Value {
        guard case .success(let value)? = outcome else {
            preconditionFailure("successValue read from a future that has not succeeded")
        }
        return value
    }
}
