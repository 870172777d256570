import FutureBridge
import FutureBridgeInternals

/// Observing on the main actor: with `on: .main` (or `.mainImmediate`) the handler is a
/// `@MainActor` closure, which may use main-actor state. It receives the events one at a
/// time, in order, on the main actor, as its `ExecutionContext` twin would with
/// `ExecutionContext.main`. Detaching through the returned handle works as there.
extension Signal {
    /// A signal whose source lives on the main actor: `start` and the stop closure it
    /// returns are `@MainActor` closures, so they may use main-actor state (a delegate
    /// wrapper, a view model's callbacks) directly.
    ///
    /// <!-- fragment: legacy -->
    /// ```swift
    /// @MainActor func locations(from tracker: LocationTracker) -> Signal<Location> {
    ///     Signal(on: .main) { input in
    ///         tracker.onUpdate = { input.send($0) }
    ///         tracker.start()
    ///         return { tracker.stop() }
    ///     }
    /// }
    /// ```
    ///
    /// `start` runs once, on the main actor, when the first observer attaches: at once if
    /// it attaches on the main queue, otherwise as soon as the main queue runs it. The
    /// stop closure runs at most once, on the main actor, when the signal ends (a terminal
    /// event, or its last observer detached). Sending through the input works from any
    /// thread.
    ///
    /// - Parameters:
    ///   - context: `MainActorContext.main` or `MainActorContext.mainImmediate` (the
    ///     same here: the start never waits behind the main queue when it can run at once).
    ///   - start: Starts the source and returns what stops it, both on the main actor.
    public convenience init(
        on context: MainActorContext,
        _ start: @escaping @MainActor (SignalInput<Value>) -> @MainActor () -> Void
    ) {
        self.init(
            source: .idle({ input, started in
                MainQueue.runOnMainActor {
                    let stop = start(input)
                    started { MainQueue.runOnMainActor(stop) }
                }
            }))
    }

    /// Attaches a main-actor `handler`, which receives every event sent from now on, in
    /// order, on the main actor, ending with the terminal event.
    ///
    /// ```swift
    /// @MainActor final class SearchModel {
    ///     var results: [String] = []
    ///     func bind(_ hits: Signal<[String]>) -> SignalObservation {
    ///         hits.observeValues(on: .main) { self.results = $0 }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - context: `MainActorContext.main` or `MainActorContext.mainImmediate`.
    ///   - handler: Receives the events, on the main actor.
    /// - Returns: The handle that detaches `handler`.
    @discardableResult
    public func observe(on context: MainActorContext, _ handler: @escaping @MainActor (Event) -> Void)
        -> SignalObservation
    {
        observe(on: context.executionContext, MainActorContext.bridge(handler))
    }

    /// Attaches a main-actor handler for values only; see ``observe(on:_:)-(MainActorContext,_)``.
    ///
    /// - Parameters:
    ///   - context: `MainActorContext.main` or `MainActorContext.mainImmediate`.
    ///   - handler: Receives each value, on the main actor.
    /// - Returns: The handle that detaches `handler`.
    @discardableResult
    public func observeValues(on context: MainActorContext, _ handler: @escaping @MainActor (Value) -> Void)
        -> SignalObservation
    {
        observeValues(on: context.executionContext, MainActorContext.bridge(handler))
    }
}
