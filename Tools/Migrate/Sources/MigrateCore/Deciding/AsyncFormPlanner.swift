import SwiftSyntax

/// Plans the `async throws` form of a completion-handler function.
///
/// The form is always `throws`, whatever the handler's shape: a handler that is
/// released without being called must end the wait with `AbandonedPromiseError`, and a
/// cancelled task with `CancellationError`.
struct AsyncFormPlanner {
    let index: SourceIndex
    let options: MigrationOptions
    let callSites: CallSites

    func handlerType(_ parameter: Parameter) -> ClosureType? {
        context.handlerType(parameter)
    }

    /// nil when the function takes no completion handler.
    func plan(_ site: FunctionSite) -> Plan? {
        if let message = options.withdrawn[.form(function: site.displayName)] {
            return .skipped(.rejectedByCompiler, message)
        }
        let parameters = site.parameters
        let handlerIndices = parameters.indices.filter { handlerType(parameters[$0]) != nil }
        if handlerIndices.isEmpty, let value = futureValue(site) { return futurePlan(site, value: value) }
        guard !handlerIndices.isEmpty else { return nil }

        if site.isAsync { return .skipped(.alreadyAsync, "async and takes a handler") }
        if site.isUnavailable { return .skipped(.unavailable, "") }
        if site.isNoasync { return .skipped(.noasync, "") }
        if site.isOptionalRequirement { return .skipped(.optionalRequirement, "") }
        if let reason = accessProblem(site) ?? AccessRule().underscored(site, in: context) { return reason }
        let last = parameters.count - 1
        guard handlerIndices.last == last else {
            let handler = parameters[handlerIndices.last!]
            return .skipped(
                .handlerNotLast,
                "`\(handler.label ?? handler.name)` is parameter \(handlerIndices.last! + 1) of \(parameters.count)")
        }

        // The handler: the last parameter, or a success/failure pair as the last two.
        let lastClosure = handlerType(parameters[last])!
        var handlers = [last]
        var shape: HandlerShape?
        if last >= 1, let first = handlerType(parameters[last - 1]), let pair = successAndFailure(first, lastClosure),
            ClosureName.isFailure(names(parameters[last])), !ClosureName.isFailure(names(parameters[last - 1]))
        {
            handlers = [last - 1, last]
            shape = pair
        }
        let handlerNames = handlers.flatMap { names(parameters[$0]) }
        if let hook = hookDescription(site) { return .skipped(.hook, hook) }
        if let overridden = index.overriddenMethod(file: site.file, line: site.line) {
            return .skipped(.coveredByOverridden, "`\(overridden)`")
        }
        if let returnType = site.returnType, TypeText.containsFunctionType(returnType) {
            return .skipped(.returnsClosure, "`\(text(returnType))`")
        }
        for handler in handlers where !handlerType(parameters[handler])!.isEscaping {
            return .skipped(.nonEscaping, "`\(parameters[handler].label ?? parameters[handler].name)`")
        }
        if let reason = parameterProblem(site, excluding: handlers) { return reason }
        if site.isMutating { return .skipped(.mutating, "") }
        if let pair = ValuesAndCompletionRule().decide(site, in: context),
            let values = handlerType(parameters[pair.values]).flatMap({ ShapeRule().decide($0, in: context) }),
            let end = handlerType(parameters[pair.completion]).flatMap({ HandlerShape($0, isError: index.isError) })
        {
            return streamPlan(
                site, shape: values, handler: pair.values,
                ending: StreamEnding(index: pair.completion, kind: .completion(end)), reason: pair.reason)
        }
        if let receiver = MultiShotRule.receiver(site, handlers: handlerIndices, in: context) {
            return subscriptionPlan(site, receiver: receiver, handlers: handlerIndices)
        }
        if let multiShot = multiShotReason(site, handlerNames: handlerNames) {
            return multiShotPlan(site, handlers: handlers, reason: multiShot)
        }
        guard let shape = shape?.carryingError(index) ?? ShapeRule().decide(lastClosure, in: context) else {
            let spelled = "(" + lastClosure.parameters.map { text($0) }.joined(separator: ", ") + ") -> Void"
            return .skipped(.unknownShape, "`\(spelled)`")
        }
        if case .result = shape, index.shadowsResult(in: site.context.ownerName) {
            return .skipped(.unknownShape, "`Result` is a type of these sources, not Swift's")
        }

        // Plain form (the value is returned) or scoped form (a body runs inside the
        // callback, with a value that cannot leave it).
        // A value that is not `Sendable` either stays in the callback (a scoped form: a
        // resource such as a database connection, valid only there) or is handed over to
        // the caller (`sending`, through FutureBridge's `SendingPromise`).
        var scoped = false
        var sendsValue = false
        switch shape {
        case .value, .none:
            if ClosureName.isWork(handlerNames)
                || (ClosureName.runsWork(site.name) && !ClosureName.isCompletion(handlerNames))
            {
                scoped = true
            }
        default:
            break
        }
        let generics = Set(site.genericsInScope.keys)
        for type in shape.valueTypes where !scoped {
            guard case .notSendable(let culprit) = index.sendability(of: type, generics: generics) else { continue }
            // A response that carries `Result<Any, E>` is a Swift 5 API: in Swift 6 its
            // `result` cannot be read from the callback's (Sendable) closure.
            if case .carriedResult = shape {
                return .skipped(.notSendable, "`\(culprit)` is not Sendable; the response cannot carry it in Swift 6")
            }
            if ClosureName.isResource(culprit) || !shape.canSendValue {
                guard shape.scopedArgument != nil else {
                    return .skipped(
                        .notSendable,
                        "`\(culprit)` is not Sendable"
                            + (ClosureName.isResource(culprit) ? " and may not leave the callback" : "")
                            + "; the \(shape.name) shape has no scoped form")
                }
                scoped = true
            } else {
                sendsValue = true
            }
        }

        // A generic value not known to be Sendable comes back as `sending` too, not with a
        // `T: Sendable` requirement: the same as a sibling whose value is a class.
        if !scoped, !sendsValue, shape.canSendValue, !site.sendableRequirements(for: shape.valueTypes).isEmpty {
            sendsValue = true
        }

        // A plain form drops the handlers and the callback queues; a scoped form keeps every
        // parameter (its body replaces the handler). The API's own async form may have
        // either set of labels (the second: a scoped form this tool wrote before).
        let optionalValues = ValuesAndCompletionRule.optionalValueHandlers(site, in: context)
        let plainKept = keptParameters(site, removing: handlers).filter { !optionalValues.contains($0) }
        for kept in Set([plainKept, Array(parameters.indices)]) {
            if let (reason, existing) = existingCounterpart(site, kept: kept) { return .skipped(reason, existing) }
        }
        if !scoped, let clash = callClash(site, labels: plainKept.map { parameters[$0].label }) {
            // A value handed over as `sending` can stay in the callback instead: the scoped
            // form keeps the original's labels.
            guard sendsValue, shape.scopedArgument != nil else { return .skipped(.wouldBreakCalls, clash) }
            scoped = true
            sendsValue = false
        }
        if scoped, let capture = CaptureRule().decide((site, shape), in: context) {
            return .skipped(.wouldBreakCalls, capture)
        }
        // A scoped form has the original's labels: a call that passes a closure from async
        // code would reach it instead of the original. The module's own calls are checked.
        if scoped, let call = callSites.callTakenOver(name: site.name, reaches: { Self.reaches(site, $0) }) {
            return .skipped(
                .wouldBreakCalls,
                "\(call.file):\(call.line) calls `\(site.selectorText)` with a closure from async code")
        }
        return .generated(
            scoped
                ? scopedForm(site, shape: shape, handler: last, closure: lastClosure)
                : plainForm(
                    site, shape: shape, handlers: handlers, kept: plainKept, passingNil: optionalValues,
                    sendsValue: sendsValue))
    }

    private func names(_ parameter: Parameter) -> [String] {
        [parameter.label, parameter.name].compactMap { $0 }
    }

    private func successAndFailure(_ success: ClosureType, _ failure: ClosureType) -> HandlerShape? {
        guard failure.parameters.count == 1, index.isError(failure.parameters[0]),
            success.isEscaping == failure.isEscaping
        else { return nil }
        switch success.parameters.count {
        case 0:
            return .successAndFailure(nil)
        case 1 where !index.isError(success.parameters[0]) && !index.isOptionalError(success.parameters[0]):
            return .successAndFailure(success.parameters[0])
        default:
            return nil
        }
    }

    /// The stream form of a multi-shot handler (the last parameter, or the first of a
    /// success/failure pair), or why it has none.
    func multiShotPlan(_ site: FunctionSite, handlers: [Int], reason multiShot: String) -> Plan {
        let parameters = site.parameters
        let last = parameters.count - 1
        // The values' handler, and the handler that reports the error ending them, if
        // any: `onError:onChange:`, or `success:failure:`.
        var valueIndex = last
        var errorIndex: Int?
        if handlers.count == 2 {
            (valueIndex, errorIndex) = (last - 1, last)
        } else if last >= 1, let previous = handlerType(parameters[last - 1]), previous.parameters.count == 1,
            index.isError(previous.parameters[0]), ClosureName.isFailure(names(parameters[last - 1]))
        {
            errorIndex = last - 1
        }
        guard var closure = handlerType(parameters[valueIndex]) else {
            return .skipped(.eventHandler, multiShot + "; its handler's shape has no stream form")
        }
        let passedBack = ObserverRule().decide((site, closure), in: context) ?? 0
        closure.parameters.removeFirst(passedBack)
        guard let valueShape = ShapeRule().decide(closure, in: context) else {
            return .skipped(.eventHandler, multiShot + "; its handler's shape has no stream form")
        }
        if case .result = valueShape, index.shadowsResult(in: site.context.ownerName) {
            return .skipped(.unknownShape, "`Result` is a type of these sources, not Swift's")
        }
        return streamPlan(
            site, shape: valueShape, handler: valueIndex,
            ending: errorIndex.map { StreamEnding(index: $0, kind: .error) },
            reason: multiShot, passedBack: passedBack)
    }

    /// The parameters a plain or stream form keeps: all but the handlers, the callback
    /// queues (which the form fills with a queue that does not hop to main) and the flags
    /// that make a handler multi-shot (which the form sets).
    func keptParameters(_ site: FunctionSite, removing handlers: [Int]) -> [Int] {
        site.parameters.indices.filter {
            !handlers.contains($0) && !site.parameters[$0].isCallbackQueue && !site.parameters[$0].isMultiShotFlag
        }
    }

    // MARK: Asking the rules

    var context: RuleContext { RuleContext(index: index, options: options, callSites: callSites) }

    func accessProblem(_ site: FunctionSite) -> Plan? {
        AccessRule().decide(site, in: context)
    }

    func parameterProblem(_ site: FunctionSite, excluding handlers: [Int] = []) -> Plan? {
        ParameterRule().decide((site, handlers), in: context)
    }

    func hookDescription(_ site: FunctionSite) -> String? {
        HookRule().decide(site, in: context)
    }

    func multiShotReason(_ site: FunctionSite, handlerNames: [String]) -> String? {
        MultiShotRule().decide((site, handlerNames), in: context)
    }

    func existingCounterpart(_ site: FunctionSite, kept: [Int]) -> (SkipReason, String)? {
        let parameters = kept.map { site.parameters[$0] }
        return CounterpartRule().decide(
            FormCandidate(site: site, labels: parameters.map(\.label), defaulted: parameters.map(\.hasDefault)),
            in: context)
    }

    func callClash(_ site: FunctionSite, name: String? = nil, labels: [String?]) -> String? {
        CallClashRule().clash(site, name: name, labels: labels, index: index)
    }

    func stopper(_ site: FunctionSite) -> Result<Stopper, StopProblem>? {
        CancellationRule().decide(site, in: context)
    }

    func futureValue(_ site: FunctionSite) -> TypeSyntax? {
        FutureRule().decide(site, in: context)
    }

    static func accepts(_ entry: SourceIndex.FunctionEntry, labels: [String?]) -> Bool {
        CounterpartRule.accepts(entry, labels: labels)
    }

    static func reaches(_ site: FunctionSite, _ call: CallSites.Call) -> Bool {
        CallClashRule.reaches(site, call)
    }
}
