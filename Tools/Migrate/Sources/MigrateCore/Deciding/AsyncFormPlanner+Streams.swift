import SwiftSyntax

/// Stream forms: a function whose handler is called many times (progress, events,
/// subscriptions) gets an `AsyncThrowingStream` of the handler's values, never a one-shot
/// async form, and ending the stream stops the handler through what the function returns.
extension AsyncFormPlanner {
    /// `handler` receives the values; `ending`, if any, is the handler that ends them.
    /// `passedBack`: how many leading parameters of the handler are the observer or the
    /// owner, which the stream does not yield.
    func streamPlan(
        _ site: FunctionSite, shape: HandlerShape, handler: Int, ending: StreamEnding?, reason: String,
        passedBack: Int = 0
    ) -> Plan {
        guard let element = shape.streamElement else {
            return .skipped(.eventHandler, reason + "; the \(shape.name) shape has no stream form")
        }
        // An event that is not Sendable stays in the callback: the form takes what to make of
        // it (`MappedStreamRule`), or there is none.
        var mapped = false
        if case .notSendable(let culprit) = index.sendability(of: element, generics: Set(site.genericsInScope.keys)) {
            guard MappedStreamRule().decide((site, shape, passedBack), in: context) else {
                return .skipped(
                    .notSendable,
                    "`\(culprit)` is not Sendable: a stream's values cross to the consuming task"
                        + MappedStreamRule.advice(culprit))
            }
            mapped = true
        }
        guard let stop = stopper(site) else {
            return .skipped(
                .eventHandler, reason + "; nothing it returns (and no `stop…()` of its owner) stops the handler")
        }
        let stopper: Stopper
        switch stop {
        case .success(let found):
            stopper = found
        case .failure(.isolated(let method, let isolation)):
            // The stream's end (`StreamEnd.onStop`) is `@Sendable` and runs on any thread.
            return .skipped(.eventHandler, reason + "; " + isolation.explained(method, from: "the stream's end"))
        case .failure(.notSendable(let type, let method)):
            return .skipped(
                .eventHandler,
                reason + "; `\(type)` is not Sendable, so the stream's end, which runs on any thread, cannot call its `"
                    + method.name + "()`" + MappedStreamRule.needsSendable(type))
        case .failure:
            return .skipped(
                .eventHandler,
                reason + "; `\(site.returnType.map { text($0) } ?? "")` does not stop the handler from any thread")
        }
        let kept = keptParameters(site, removing: [handler] + (ending.map { [$0.index] } ?? []))
        let labels = kept.map { site.parameters[$0].label }
        if let (reason, existing) = existingCounterpart(site, kept: kept) { return .skipped(reason, existing) }
        if let clash = callClash(site, labels: labels) { return .skipped(.wouldBreakCalls, clash) }
        // A request object's hook also ends with the request (a stream with a completion
        // ends with it already).
        let finish = ending == nil ? FinishEventRule().decide(site, in: context) : .notARequest
        return .generated(
            streamForm(
                site, shape: shape, element: element, handler: handler, ending: ending, passedBack: passedBack,
                kept: kept,
                stop: stopper, finish: finish, mapped: mapped))
    }
}

/// The handler that ends a stream: one that reports the error ending the values
/// (`onError:`, `failure:`), or a terminal completion (`completion: (Error?) -> Void`).
struct StreamEnding {
    enum Kind {
        /// `(Error) -> Void`: finishes the stream by throwing.
        case error
        /// A completion that carries no value (`(Error?)`, `()`, `(Result<Void, E>)`):
        /// finishes the stream, throwing its error if it has one.
        case completion(HandlerShape)
    }

    var index: Int
    var kind: Kind

    /// The closure that ends the stream through `end` (the form's `StreamEnd`), with
    /// parameters named by `fresh`. An error handler's error finishes the stream (which then
    /// stops the operation); a completion ends the operation, so the stream's end stops nothing.
    func closure(end: String, fresh: (String) -> String) -> HandlerClosure {
        switch kind {
        case .error:
            let error = fresh("error")
            return HandlerClosure(parameters: [error], body: ["\(end).continuation.finish(throwing: \(error))"])
        case .completion(.errorOnly):
            let error = fresh("error")
            return HandlerClosure(parameters: [error], body: ["\(end).operationEnded(throwing: \(error))"])
        case .completion(.result):
            let result = fresh("result")
            return HandlerClosure(
                parameters: [result],
                body: [
                    "if case .failure(let error) = \(result) {", "    \(end).operationEnded(throwing: error)",
                    "} else {", "    \(end).operationEnded()", "}",
                ])
        case .completion:
            return HandlerClosure(parameters: [], body: ["\(end).operationEnded()"])
        }
    }
}
