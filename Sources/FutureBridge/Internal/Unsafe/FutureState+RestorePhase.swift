// Putting a future's phase back after `takePhase()` without destroying the placeholder.
//
// Why: assigning the new phase would destroy the old value, `.modifying`, through an
// outlined call that the optimizer keeps even though it knows the case (measured when this
// was added: B1 687 -> 673, B3 723 -> 698 instructions per future).
//
// Invariant: called only while `phase` is `.modifying`, that is between `takePhase()` and
// the `restorePhase(_:)` that ends the same transition (debug builds assert it); the
// pointer never leaves the call. This is deliberately outside the documented contract of
// `initialize(to:)`, which asks for uninitialized memory or a trivial type: over memory
// that holds a value it writes without destroying that value. `.modifying` carries no
// payload, so nothing is left undestroyed. A transition that returned without restoring
// would leave `.modifying`, a valid value, never uninitialized memory: that is why the
// phase is not moved out through the pointer instead, although that would save B3 another
// 18 instructions.
//
// `replacePhaseHoldingNothing(with:)` writes the same way over a phase that holds no
// reference: `.modifying`, or `.pending` without a first callback, whose payload is then
// only the flags byte (debug builds assert it). Its one caller,
// `completeIfNothingWaits(with:)`, checks that case under the lock just before.
extension FutureState {
    /// Puts `new` where ``takePhase()`` left ``Phase/modifying`` (see the invariant above).
    @inlinable @inline(__always)
    mutating func restorePhase(_ new: consuming Phase) {
        assert(isModifying, "restorePhase(_:) would write over a phase that holds a value")
        writePhase(over: new)
    }

    /// Sets `new` over a phase that holds no reference: a pending one without a first
    /// callback (its payload is the flags, a byte). Assigning would destroy it through an
    /// outlined call (measured: 19 of B1's instructions); here nothing needs destroying.
    @inlinable @inline(__always)
    mutating func replacePhaseHoldingNothing(with new: consuming Phase) {
        assert(holdsNoReference, "replacePhaseHoldingNothing(with:) would write over a phase that holds a value")
        writePhase(over: new)
    }

    /// Writes `new` into `phase` without destroying what is there; only for the two
    /// callers above, under their invariants.
    @inlinable @inline(__always)
    mutating func writePhase(over new: consuming Phase) {
        var moving = Optional(new)  // a closure cannot consume what it captures; it can take
        withUnsafeMutablePointer(to: &phase) { $0.initialize(to: moving.take().unsafelyUnwrapped) }
    }

    /// Whether the phase holds no reference (for the assertion).
    @inlinable
    var holdsNoReference: Bool {
        switch phase {
        case .modifying: true
        case .pending(let pending): pending.first == nil
        case .completed: false
        }
    }

    /// Whether the phase is the placeholder ``takePhase()`` leaves (for the assertion).
    @inlinable
    var isModifying: Bool {
        if case .modifying = phase { true } else { false }
    }
}
