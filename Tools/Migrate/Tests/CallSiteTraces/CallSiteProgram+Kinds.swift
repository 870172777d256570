extension CallSiteProgram {
    /// A multi-shot handler's program (`StreamCallRule`): its handler's code runs once per
    /// value, and the trace tests for one-shot handlers do not apply to it.
    public var isMultiShot: Bool { name.hasPrefix("StreamCallRule:") }

    /// A continuation's program whose `do`/`catch` the awaited call's own errors reach after the
    /// rewrite (a continuation that threw nothing): a handler never called or a cancelled task
    /// runs that `catch`, where before no error of the call reached it.
    public var catchesNewErrors: Bool { name.contains("its `catch` now receives") }

    /// The same, with a `catch is CancellationError` first: a cancelled task runs that one.
    public var catchesCancellationFirst: Bool { name.contains("a `catch` with a pattern before") }

    /// A converted function whose handler takes a value and no error (`CompletionCallRule`'s
    /// `(T)` examples): its shim calls the handler with values only, so a handler the API
    /// released uncalled reaches none, as before.
    public var deliversValuesOnly: Bool { name.hasPrefix("CompletionCallRule: `(T)`") }

    /// Whether the harness waits for the shim's delivery with `outcome`: not for a failure
    /// the shim of a values-only handler does not deliver.
    public func waitsForShim(_ outcome: Outcome) -> Bool {
        waitsForShim && !(deliversValuesOnly && outcome == .dropped)
    }

    /// Whether the harness waits for the API's first call with `outcome` instead: the shim of a
    /// values-only handler makes it from a task of its own, and delivers nothing after it.
    public func waitsForCall(_ outcome: Outcome) -> Bool {
        waitsForShim && deliversValuesOnly && outcome == .dropped
    }

    /// A `DispatchGroup` fan-out's program (`DispatchGroupRule`): its calls run concurrently
    /// after the rewrite (`async let`), so the API's events may come in another order.
    public var isFanOut: Bool { name.hasPrefix("DispatchGroupRule:") }

    /// The trace as the checked-in traces record it: a fan-out's API events sorted (they
    /// are concurrent after the rewrite), before the program's own events, in order.
    public func normalized(_ events: [String]) -> [String] {
        guard isFanOut else { return events }
        return events.filter { $0.hasPrefix("api:") }.sorted() + events.filter { !$0.hasPrefix("api:") }
    }

    /// Whether the checked-in traces record the run: not a cancelled fan-out, whose
    /// concurrent calls may be cancelled before or after they reach the API.
    public func isRecorded(_ outcome: Outcome) -> Bool {
        !(isFanOut && outcome == .held)
    }

    /// Why the program before the rewrite is not run with `outcome`: a second call of a
    /// fan-out's handler leaves the group twice, which crashes the process; a handler never
    /// called (or held until the task has ended) never leaves it, and `wait()` blocks for ever.
    public func beforeNotRun(_ outcome: Outcome) -> String? {
        guard isFanOut else { return continuationNotRun(outcome) }
        if outcome == .twice { return "a second `leave()` of the group crashes the process" }
        if name.contains("`group.wait()`"), outcome == .dropped || outcome == .held {
            return "the group is never left: `wait()` blocks for ever"
        }
        return nil
    }
}
