/// Asks the call-site rules, in order, whether and how a call becomes straight-line async
/// code: each either settles something and lets the next go on, or leaves the call alone
/// with its reason.
struct CallSitePlanner {
    let context: RuleContext

    private static var rules: [any CallRule] {
        [
            ExpectationTestRule(), ContinuationCallRule(), ConfirmationTestRule(), AsyncContextRule(),
            ReceiverTypeRule(),
            CounterpartCallRule(), KeptHandleRule(),
            DispatchGroupRule(), StatementOrderRule(), MainQueueHopRule(), WeakSelfRule(), StreamCallRule(),
            ResultHandlerRule(), OptionalValueErrorRule(), ErrorOnlyRule(), ValueHandlerRule(),
        ]
    }

    /// The rules for a call inside a function being converted (``CompletionPathRule``): its
    /// place in the function and the function's hops are the function rules' to decide.
    private static var innerRules: [any CallRule] {
        [
            ReceiverTypeRule(), CounterpartCallRule(), KeptHandleRule(), WeakSelfRule(), ResultHandlerRule(),
            OptionalValueErrorRule(), ErrorOnlyRule(), ValueHandlerRule(),
        ]
    }

    /// How a call inside a function being converted becomes an await, or why it cannot.
    /// With `forwarding`, the handler passes what it receives to the function's own handler:
    /// only the counterpart and the capture list are settled.
    func planInner(_ rewrite: CallRewrite, forwarding: Bool = false) -> CallStep {
        var current = rewrite
        for rule in Self.innerRules.prefix(forwarding ? 4 : Self.innerRules.count) {
            switch rule.decide(current, in: context) {
            case .proceed(let next): current = next
            case .leave(let reason, let detail): return .leave(reason, detail)
            }
        }
        guard current.branches != nil || forwarding else {
            return .leave(.handlerPattern, "the handler does not separate its success and failure code")
        }
        if current.hopsToMain {
            return .leave(.callbackQueue, "the handler runs on the main queue, the function's code after it would not")
        }
        return .proceed(current)
    }

    func plan(_ rewrite: CallRewrite) -> CallStep {
        var current = rewrite
        for rule in Self.rules {
            switch rule.decide(current, in: context) {
            case .proceed(let next): current = next
            case .leave(let reason, let detail): return .leave(reason, detail)
            }
            // A continuation the call replaces where it stands: its handler has no code to place.
            if current.resumed != nil, current.branches != nil { return .proceed(current) }
        }
        guard current.branches != nil, let entry = current.entry else {
            let shape = current.entry?.shape.name ?? "?"
            return .leave(
                .handlerPattern,
                "the \(shape) handler does not separate its success and failure code in a form this tool rewrites")
        }
        if current.hopsToMain, !(current.context?.isMainActor ?? false) {
            let code = (current.branches?.success ?? []) + (current.branches?.failure ?? [])
            guard let captured = MainQueueHopRule.capturedVariables(current, code: code) else {
                return .leave(
                    .captureList, "the handler's main-queue code assigns a local `var`, which `MainActor.run` may not")
            }
            current.hopCaptures = captured.captured
            current.hopCopies = captured.unwrapped
            current.notes.append("the handler's main-queue code runs in `await MainActor.run { }`")
        } else if !current.hopsToMain, current.context?.isMainActor ?? false {
            current.notes.append(
                "the handler's code now runs on the main actor (it ran where `\(entry.name)` called it back)")
        }
        if TestFailureRule.propagates(current) {
            current.propagates = true
            current.notes.append(
                "a failure of `\(entry.name)` now throws out of the test, which fails there as it did")
        }
        return .proceed(current)
    }
}
