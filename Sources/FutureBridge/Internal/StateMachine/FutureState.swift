/// The whole mutable state of one future, as a pure state machine.
///
/// Each event is a `mutating func` named after what happened and returns what must be
/// done; the storage does it after releasing the lock. No function here calls user
/// code, so every transition can be tested without threads.
///
/// Cancellation bookkeeping (FutureKit's model): consumers that want the value may hold
/// an *interest*. A consumer that no longer wants it *withdraws* its interest with a
/// cancel vote. The request goes to the producer's cancel actions once somebody voted
/// and no interest is held any more; it is delivered at most once.
///
/// Laid out to fit 32 bytes for small values (the future's whole allocation is then 64
/// bytes): the first callback inline, everything rarer behind one word.
@usableFromInline
struct FutureState<Value: Sendable> {
    @usableFromInline
    var phase: Phase
    /// Consumers currently holding an interest (meaningful while pending).
    @usableFromInline
    var interests: UInt32 = 0
    /// Callbacks after the first, and cancel actions (while pending).
    @usableFromInline
    var attachments: Attachments<Value>? = nil

    @usableFromInline
    enum Phase {
        case pending(Pending)
        case completed(StoredOutcome<Value>)
        /// Transient: set while the payload is being mutated in place. Never visible
        /// outside a mutating function.
        case modifying
    }

    /// `first` must stay its only field that holds a reference: a pending phase without a
    /// first callback is overwritten without being destroyed
    /// (``replacePhaseHoldingNothing(with:)``).
    @usableFromInline
    struct Pending {
        @usableFromInline
        var first: Callback<Value>? = nil
        @usableFromInline
        var flags: Flags = []

        @inlinable
        init() {}
    }

    @usableFromInline
    struct Flags: OptionSet {
        @usableFromInline
        var rawValue: UInt8

        @inlinable
        init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Some consumer asked for cancellation.
        @inlinable static var cancelWanted: Flags { Flags(rawValue: 1) }
        /// The request was delivered: actions taken; later handlers run at once.
        @inlinable static var cancellationRequested: Flags { Flags(rawValue: 2) }
        /// The promise was told to follow another future (``claimForFollowing()``): only that
        /// future's outcome may complete it now.
        @inlinable static var following: Flags { Flags(rawValue: 4) }
    }

    @inlinable
    init(_ phase: Phase) {
        self.phase = phase
    }

    @inlinable
    static var initial: FutureState { FutureState(.pending(Pending())) }

    /// A pending state whose cancel requests go to `upstream`.
    @inlinable
    static func forwarding(to upstream: AnyFutureBox) -> FutureState {
        var state = initial
        state.attachments = .forward(upstream)
        return state
    }

    /// Moves the phase out, leaving ``Phase/modifying``; the caller puts one back with
    /// ``restorePhase(_:)``.
    /// Moving instead of pattern-matching avoids copying the callback (a retain) on
    /// each event.
    @inlinable @inline(__always)
    mutating func takePhase() -> Phase {
        var taken = Phase.modifying
        swap(&taken, &phase)
        return taken
    }

    @inlinable
    var outcome: Outcome<Value>? {
        if case .completed(let stored) = phase { stored.outcome } else { nil }
    }

    @inlinable @inline(__always)
    var isCompleted: Bool {
        if case .completed = phase { true } else { false }
    }

    @inlinable @inline(__always)
    var flags: Flags {
        if case .pending(let pending) = phase { pending.flags } else { [] }
    }

    /// Sets `flag`; `false` when completed (nothing changes).
    @inlinable @inline(__always)
    mutating func insert(_ flag: Flags) -> Bool {
        switch takePhase() {
        case .pending(var pending):
            pending.flags.insert(flag)
            restorePhase(.pending(pending))
            return true
        case let other:
            restorePhase(other)
            return false
        }
    }
}
