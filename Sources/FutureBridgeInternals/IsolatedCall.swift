// Invariants: the body is called at most once (its callers run it from a future's cancel
// actions or a signal's stop, each of which runs once), in the isolation it was
// registered from; nothing but this box references the closure's captured state.

/// A closure that must run in the isolation of the code that registered it: a cancel
/// handler, a signal's start or stop closure.
///
/// The closure comes in as `sending` (so nothing else holds its captured state) together
/// with the registering code's isolation (`#isolation`), and runs at most once:
/// - registered from non-isolated code: at once, on the thread that calls ``run(_:)``;
/// - registered from the main actor: at once if ``run(_:)`` is called on the main queue,
///   otherwise queued on the main queue (calls keep their order);
/// - registered from another actor: in a task on that actor (no order between calls).
// @unchecked Sendable: `body` arrived as `sending`, so this box holds the only reference
// to its captured state, and it is called at most once (the callers below run it from
// `FutureStorage`'s cancel actions or a signal's stop, which run once) in the isolation
// it was registered from, as listed above.
@usableFromInline
package struct IsolatedCall<Argument: Sendable>: @unchecked Sendable {
    let isolation: (any Actor)?
    let body: (Argument) -> Void

    @usableFromInline
    package init(isolation: (any Actor)?, _ body: sending @escaping (Argument) -> Void) {
        self.isolation = isolation
        self.body = body
    }

    /// For a closure made inside another `IsolatedCall`'s body, in the same isolation
    /// (such as the stop closure a signal's start returns): only that body references it,
    /// so it is as unshared as a `sending` one, though the compiler cannot see it.
    package init(isolation: (any Actor)?, unchecked body: @escaping () -> Void) where Argument == Void {
        self.isolation = isolation
        self.body = { _ in body() }
    }

    @usableFromInline
    package func run(_ argument: Argument) {
        guard let isolation else { return body(argument) }
        if isolation === MainActor.shared {
            // At once on the main queue; otherwise queued there, first in, first out, so
            // that calls made in one order run in that order.
            return MainQueue.runOnMainActor { self.body(argument) }
        }
        Task { await Self.call(body, with: argument, on: isolation) }
    }

    private static func call(_ body: (Argument) -> Void, with argument: Argument, on actor: isolated any Actor) {
        body(argument)
    }
}
