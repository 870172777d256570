import FutureBridgeAtomics
import FutureBridgeInternals

/// The bookkeeping of a future combined from several inputs (`whenAll`, `whenAny`,
/// `race`...): its storage, the interests it holds in its inputs, and how many inputs
/// are still pending.
///
/// The combined future holds one interest in every input. Its cancel request, and its
/// own completion, withdraw all of them at once (at most once) with a cancel vote: a
/// request to the inputs still pending (the losers of a race, the rest of a failed
/// `whenAll`) and a no-op for those already completed.
@usableFromInline
final class Combination<Output: Sendable>: Sendable {
    /// How many inputs are still pending: the first stored property, only ever reached
    /// atomically through its address (see ``firstStoredProperty(of:as:)``).
    @usableFromInline nonisolated(unsafe) var remaining: Int
    @usableFromInline let output: FutureStorage<Output>
    @usableFromInline let inputs: [AnyFutureBox]
    @usableFromInline let withdrawn: OnceFlag

    @inlinable
    init(inputs: [AnyFutureBox]) {
        self.output = .pending()
        self.withdrawn = OnceFlag()
        self.inputs = inputs
        self.remaining = inputs.count
        for input in inputs { input.addInterest() }
        output.addCancelHandler { [self] in withdrawInterests() }
    }

    @inlinable
    var future: Future<Output> { Future(storage: output) }

    /// Counts one more completed input; `true` for the last one.
    @inlinable
    func inputCompleted() -> Bool {
        fb_int_fetch_add_acq_rel(firstStoredProperty(of: self), -1) == 1
    }

    /// Completes the combined future (the first call wins) and withdraws its interests.
    @inlinable
    func complete(_ outcome: Outcome<Output>) {
        output.complete(outcome)
        withdrawInterests()
    }

    /// Records one input's outcome for a future that needs every input to succeed: the
    /// last success completes it with `gather()`; a failure or a cancellation completes
    /// it at once.
    @inlinable
    func inputEnded<Input>(_ outcome: Outcome<Input>, gather: () -> Output) {
        if case .success = outcome {
            if inputCompleted() { complete(.success(gather())) }
        } else {
            complete(outcome.withoutValue())
        }
    }

    @usableFromInline
    func withdrawInterests() {
        guard withdrawn.claim() else { return }
        for input in inputs { input.withdrawInterest(cancelling: true) }
    }
}

extension FutureStorage {
    /// The value of a future known to have succeeded.
    @inlinable
    var successValue: Value {
        guard case .success(let value)? = outcome else {
            preconditionFailure("successValue read from a future that has not succeeded")
        }
        return value
    }
}
