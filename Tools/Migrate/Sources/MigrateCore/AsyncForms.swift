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

    /// The closure type of a parameter that looks like a completion handler: it returns
    /// `Void`, neither throws nor is async, and escapes, carries an error, or is named
    /// like a completion.
    func handlerType(_ parameter: Parameter) -> ClosureType? {
        guard let closure = ClosureType(parameter.type, aliases: index.alias), closure.returnsVoid, !closure.isAsync,
            !closure.isThrowing, !closure.isAutoclosure
        else { return nil }
        if closure.isEscaping { return closure }
        if let shape = HandlerShape(closure), shape.carriesError { return closure }
        let names = [parameter.label, parameter.name].compactMap { $0 }
        return names.contains { ClosureName.words($0).contains(where: ClosureName.completionWords.contains) }
            ? closure : nil
    }

    /// nil when the function takes no completion handler.
    func plan(_ site: FunctionSite) -> Plan? {
        let parameters = site.parameters
        let handlerIndices = parameters.indices.filter { handlerType(parameters[$0]) != nil }
        if handlerIndices.isEmpty, let value = futureValue(site) { return futurePlan(site, value: value) }
        guard !handlerIndices.isEmpty else { return nil }

        if site.isAsync { return .skipped(.alreadyAsync, "async and takes a handler") }
        if site.isUnavailable { return .skipped(.unavailable, "") }
        if site.isNoasync { return .skipped(.noasync, "") }
        if site.isOptionalRequirement { return .skipped(.optionalRequirement, "") }
        if let reason = accessProblem(site) { return reason }
        if options.publicOnly, site.name.hasPrefix("_") { return .skipped(.notPublic, "underscored: not public API") }
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
        if let returnType = site.returnType, TypeText.containsFunctionType(returnType) {
            return .skipped(.returnsClosure, "`\(text(returnType))`")
        }
        for handler in handlers where !handlerType(parameters[handler])!.isEscaping {
            return .skipped(.nonEscaping, "`\(parameters[handler].label ?? parameters[handler].name)`")
        }
        if let reason = parameterProblem(site, excluding: handlers) { return reason }
        if site.isMutating { return .skipped(.mutating, "") }
        if let multiShot = multiShotReason(site, handlerNames: handlerNames) {
            // The values' handler, and the handler that reports the error ending them, if
            // any: `onError:onChange:`, or `success:failure:`.
            var valueIndex = last
            var errorIndex: Int?
            if handlers.count == 2 {
                (valueIndex, errorIndex) = (last - 1, last)
            } else if last >= 1, let previous = handlerType(parameters[last - 1]), previous.parameters.count == 1,
                TypeText.isError(previous.parameters[0]), ClosureName.isFailure(names(parameters[last - 1]))
            {
                errorIndex = last - 1
            }
            guard let closure = handlerType(parameters[valueIndex]),
                let valueShape = HandlerShape(closure)?.carryingError(index)
            else {
                return .skipped(.eventHandler, multiShot + "; its handler's shape has no stream form")
            }
            if case .result = valueShape, index.shadowsResult(in: site.context.ownerName) {
                return .skipped(.unknownShape, "`Result` is a type of these sources, not Swift's")
            }
            return streamPlan(site, shape: valueShape, handler: valueIndex, errorHandler: errorIndex, reason: multiShot)
        }
        guard let shape = (shape ?? HandlerShape(lastClosure))?.carryingError(index) else {
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

        // A plain form drops the handlers and the callback queues; a scoped form keeps every
        // parameter (its body replaces the handler). The API's own async form may have
        // either set of labels (the second: a scoped form this tool wrote before).
        let plainKept = keptParameters(site, removing: handlers)
        for labels in Set([plainKept, Array(parameters.indices)]).map({ $0.map { parameters[$0].label } }) {
            if let existing = existingCounterpart(site, labels: labels) { return .skipped(.hasAsyncSibling, existing) }
        }
        if !scoped, let clash = callClash(site, labels: plainKept.map { parameters[$0].label }) {
            // A value handed over as `sending` can stay in the callback instead: the scoped
            // form keeps the original's labels.
            guard sendsValue, shape.scopedArgument != nil else { return .skipped(.wouldBreakCalls, clash) }
            scoped = true
            sendsValue = false
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
                : plainForm(site, shape: shape, handlers: handlers, kept: plainKept, sendsValue: sendsValue))
    }

    private func names(_ parameter: Parameter) -> [String] {
        [parameter.label, parameter.name].compactMap { $0 }
    }

    private func successAndFailure(_ success: ClosureType, _ failure: ClosureType) -> HandlerShape? {
        guard failure.parameters.count == 1, TypeText.isError(failure.parameters[0]),
            success.isEscaping == failure.isEscaping
        else { return nil }
        switch success.parameters.count {
        case 0:
            return .successAndFailure(nil)
        case 1 where !TypeText.isError(success.parameters[0]) && !TypeText.isOptionalError(success.parameters[0]):
            return .successAndFailure(success.parameters[0])
        default:
            return nil
        }
    }

    func accessProblem(_ site: FunctionSite) -> Plan? {
        let access = site.access
        if access <= .fileprivate { return .skipped(.notVisible, "") }
        if options.publicOnly, access < .public { return .skipped(.notPublic, "") }
        return nil
    }

    func parameterProblem(_ site: FunctionSite, excluding handlers: [Int] = []) -> Plan? {
        for (offset, parameter) in site.parameters.enumerated() where !handlers.contains(offset) {
            let name = "`\(parameter.name)`"
            if parameter.isVariadic { return .skipped(.variadic, name) }
            if parameter.isInout { return .skipped(.inoutParameter, name) }
            if parameter.isIsolated { return .skipped(.isolatedParameter, name) }
            if let closure = ClosureType(parameter.type, aliases: index.alias), closure.isAutoclosure {
                return .skipped(.autoclosure, name)
            }
        }
        return nil
    }

    // MARK: - Plain form

    /// `sendsValue`: the value is not `Sendable` and is handed to the caller as `sending`
    /// (`withPromise` then hands its body a `SendingPromise`).
    private func plainForm(
        _ site: FunctionSite, shape: HandlerShape, handlers: [Int], kept: [Int], sendsValue: Bool
    ) -> GeneratedMember {
        let promise = site.freshName("promise")
        var arguments: [String] = []
        var trailing: HandlerClosure?
        for (offset, parameter) in site.parameters.enumerated() {
            if !handlers.contains(offset) {
                arguments.append(
                    kept.contains(offset)
                        ? parameter.argument
                        : (parameter.label.map { "\($0): " } ?? "")
                            + parameter.callbackQueueArgument(serialLabel: nil))
                continue
            }
            if let closure = resolvingClosure(site, shape: shape, promise: promise) {
                trailing = closure
                continue
            }
            let adapter: String
            if case .successAndFailure = shape, offset == handlers.last {
                adapter = promise + ".reject"
            } else {
                adapter = promise + ".resolve"
            }
            arguments.append(parameter.label.map { "\($0): \(adapter)" } ?? adapter)
        }
        let call = CallText(prefix: "", callee: site.tryCallee, arguments: arguments, trailing: trailing)
        let generics = Set(site.genericsInScope.keys)
        let sendsArguments = kept.allSatisfy { offset in
            index.sendability(of: site.parameters[offset].type, generics: generics) == .sendable
                && !generics.contains(where: TypeText.mentionedNames(site.parameters[offset].type).contains)
        }
        var (callLines, handleNote, needsUnchecked) = callWithHandle(
            site, call: call, promise: promise, sendsArguments: sendsArguments)
        let value = shape.valueText ?? "Void"
        let body = bridge(site, value: value, promise: promise, lines: &callLines)

        let removed = Set(
            site.parameters.indices.filter { !kept.contains($0) }.flatMap {
                [site.parameters[$0].name, site.parameters[$0].label].compactMap { $0 }
            })
        let documentation = composeDocumentation(
            site, removing: removed, notes: [handleNote?.documentation ?? Self.notStopped + "."],
            callouts: returnsAndThrows(site, shape: shape, scoped: false))

        let keptParameters = kept.map { site.parameters[$0] }
        let declaration = DeclarationText(
            documentation: documentation,
            attributes: attributes(site, returnsValue: shape.valueText != nil),
            modifiers: modifiers(site, async: true),
            name: site.name,
            genericParameters: genericParameters(site),
            parameters: keptParameters.map(\.declaration),
            effects: "async throws",
            returnType: shape.valueText.map { sendsValue ? "sending " + $0 : $0 },
            whereRequirements: whereRequirements(site)
                + (sendsValue ? [] : site.sendableRequirements(for: shape.valueTypes)),
            body: body)
        let memberKey =
            site.name + "(" + keptParameters.map { ($0.label ?? "_") + ":" + text($0.type) }.joined(separator: ",")
            + ")"
        var note = shape.name
        if sendsValue { note += ", sending (the value is not Sendable)" }
        if let handleNote { note += "; " + handleNote.report }
        return GeneratedMember(
            site: site, lines: declaration.lines(indent: site.memberIndent),
            signatureKey: ownerKey(site) + memberKey, memberKey: memberKey, note: note,
            form: FormInfo(
                kind: .async, cancels: handleNote?.cancels ?? false, unresolvedHandle: handleNote?.unresolved),
            needsUncheckedHandle: needsUnchecked)
    }

    // MARK: - Scoped form

    private func scopedForm(_ site: FunctionSite, shape: HandlerShape, handler: Int, closure: ClosureType)
        -> GeneratedMember
    {
        let parameter = site.parameters[handler]
        let output = site.freshName("Output")
        let promise = site.freshName("promise")
        let argumentType: TypeSyntax? = shape.scopedArgument ?? nil
        let isResult: Bool
        if case .result = shape { isResult = true } else { isResult = false }

        // The body's type: the handler's attributes, its value in, the output out. A body
        // that is not `@Sendable` is `sending`: a caller on an actor hands it over.
        // (A closure isolated to a global actor is `Sendable` already.)
        let isSendable = closure.attributes.contains { $0 == "@Sendable" || $0.hasSuffix("Actor") }
        let sending = isSendable ? "" : "sending "
        let closureAttributes = (["@escaping"] + closure.carriedAttributes).joined(separator: " ")
        let bodyType = "\(sending)\(closureAttributes) (\(argumentType.map { text($0) } ?? "")) throws -> \(output)"
        var bodyDeclaration = parameter.syntax.firstName.text
        if let second = parameter.syntax.secondName { bodyDeclaration += " " + second.text }
        bodyDeclaration += ": " + bodyType

        // The call: the original, with a handler that runs the body.
        let resultType = index.shadowsResult(in: site.context.ownerName) ? "Swift.Result" : "Result"
        let others = site.parameters.indices.filter { $0 != handler }.map { site.parameters[$0].argument }
        let closureBody: HandlerClosure
        if let argumentType {
            let preferred =
                closure.parameterNames.first.flatMap { $0 }
                ?? (isResult ? "result" : lowerCamel(TypeText.simpleName(argumentType) ?? "value"))
            let argument = site.freshName(preferred, avoiding: [output, promise])
            switch shape {
            case .carriedError:
                closureBody = HandlerClosure(
                    parameters: [argument],
                    body: [
                        "\(promise).resolve(",
                        "    \(resultType) {",
                        "        if let error = \(argument).error { throw error }",
                        "        return try \(parameter.name)(\(argument))",
                        "    })",
                    ])
            default:
                let use: String
                if case .carriedResult = shape {
                    use = "\(argument).result.get()"
                } else {
                    use = isResult ? "\(argument).get()" : argument
                }
                closureBody = HandlerClosure(
                    parameters: [argument],
                    body: ["\(promise).resolve(\(resultType) { try \(parameter.name)(\(use)) })"])
            }
        } else {
            closureBody = HandlerClosure(
                parameters: [], body: ["\(promise).resolve(\(resultType) { try \(parameter.name)() })"])
        }
        let call = CallText(prefix: "", callee: site.tryCallee, arguments: others, trailing: closureBody)
        var (callLines, handleNote, needsUnchecked) = callWithHandle(site, call: call, promise: promise)
        let body = bridge(site, value: output, promise: promise, lines: &callLines)

        let received = argumentType.map { "with the `\(text($0))` it receives (which may not leave the callback)" }
        // The handler calls the body where the original calls it: on its own thread, or on
        // the global actor of the handler's type.
        let runsWhere =
            closure.attributes.first { $0.hasSuffix("Actor") }.map {
                "It runs on `\($0)`, where `\(site.selectorText)` calls its handler"
            } ?? "It runs on the thread where `\(site.selectorText)` calls its handler, not in the caller's isolation"

        let documentation = composeDocumentation(
            site, removing: Set([parameter.name, parameter.label].compactMap { $0 }),
            notes: [handleNote?.documentation ?? Self.notStopped + "."],
            callouts: [
                "- Parameter \(parameter.name): Runs inside the callback" + (received.map { ", " + $0 } ?? "")
                    + ". What it returns is returned; what it throws is thrown. " + runsWhere
                    + ", and it may run after the awaiting task is cancelled (what it returns is then dropped)."
            ] + returnsAndThrows(site, shape: shape, scoped: true))

        var parameters = site.parameters.map(\.declaration)
        parameters[handler] = bodyDeclaration
        let declaration = DeclarationText(
            documentation: documentation,
            attributes: attributes(site, returnsValue: true),
            modifiers: modifiers(site, async: true),
            name: site.name,
            genericParameters: genericParameters(site) + ["\(output): Sendable"],
            parameters: parameters,
            effects: "async throws",
            returnType: output,
            whereRequirements: whereRequirements(site),
            body: body)
        let memberKey =
            site.name + "("
            + site.parameters.enumerated().map { offset, parameter in
                (parameter.label ?? "_") + ":" + (offset == handler ? "scoped" : text(parameter.type))
            }.joined(separator: ",") + ")"
        var note = shape.name + ", scoped"
        if let argumentType { note += " (`\(text(argumentType))` stays in the callback)" }
        if let handleNote { note += "; " + handleNote.report }
        return GeneratedMember(
            site: site, lines: declaration.lines(indent: site.memberIndent),
            signatureKey: ownerKey(site) + memberKey, memberKey: memberKey, note: note,
            form: FormInfo(
                kind: .scoped, cancels: handleNote?.cancels ?? false, unresolvedHandle: handleNote?.unresolved),
            needsUncheckedHandle: needsUnchecked)
    }

    // MARK: - Shared pieces

    struct HandleNote {
        var documentation: String
        var report: String
        /// Whether cancelling the task stops the operation.
        var cancels: Bool
        /// The returned type this tool could not resolve, if that is why it does not cancel.
        var unresolved: String?
    }

    /// How a returned handle stops the operation it stands for.
    struct Stopper {
        /// The handle's type, for the notes.
        var typeName: String
        /// The method it calls (`cancel`, `invalidate`, `stop`).
        var method: String
        /// The method returns something the call discards (`cancel() -> Self`).
        var discardsResult: Bool
        /// A `URLSessionTask`: it starts suspended, so the form resumes it.
        var resumes: Bool
        /// Kept in `UncheckedCancelHandle` to cross into the closure that cancels it (a stream's
        /// `@Sendable` `onTermination`, or the `sending` closure given to `cancelOnRequest`).
        var unchecked: Bool
        /// The owner stops it (`startListening` is stopped by `self.stopListening()`): nothing
        /// returned is kept.
        var onSelf = false

        /// The statement that stops the operation through `handle` (`?` for an optional one).
        func call(_ handle: String, chain: String) -> String {
            if onSelf { return (discardsResult ? "_ = " : "") + "self." + method + "()" }
            return (discardsResult ? "_ = " : "") + handle + (unchecked ? ".value" : "") + chain + "." + method + "()"
        }
    }

    /// `startListening(…)` on a `Sendable` owner that has `stopListening()` (or `start` and
    /// `stop()`): the owner's own method stops what the function started. A failure when
    /// the stop method cannot be called from a closure that is not isolated.
    func pairedStop(_ site: FunctionSite) -> Result<Stopper, StopProblem>? {
        guard !site.isStatic, site.name.hasPrefix("start"), let owner = site.context.ownerName,
            let info = site.ownerInfo, index.isSendable(info)
        else { return nil }
        let name = "stop" + site.name.dropFirst("start".count)
        for candidate in index.selfAndSupertypes(owner) {
            guard let entry = index.entries(owner: candidate, name: name, labels: []).first(where: { !$0.isStatic })
            else { continue }
            let typeName = SourceIndex.lastComponent(owner)
            if let isolation = index.callIsolation(of: entry.isolation, owner: owner) {
                return .failure(.isolated("\(typeName).\(name)()", isolation))
            }
            return .success(
                Stopper(
                    typeName: typeName, method: name, discardsResult: entry.returnsValue, resumes: false,
                    unchecked: false, onSelf: true))
        }
        return nil
    }

    /// How to stop the operation through what the function returns, or why it cannot.
    func stopper(_ site: FunctionSite) -> Result<Stopper, StopProblem>? {
        guard let returnType = site.returnType else { return pairedStop(site) }
        let handle = index.handle(returnType, owner: site.context.ownerName)
        switch handle {
        case .unknown, .noCancel, .value:
            if let paired = pairedStop(site) { return paired }
        default:
            break
        }
        switch handle {
        case .urlSessionTask(let name):
            return .success(
                Stopper(typeName: name, method: "cancel", discardsResult: false, resumes: true, unchecked: false))
        case .cancellable(let name, let method):
            return .success(
                Stopper(
                    typeName: name, method: method.name, discardsResult: method.returnsValue, resumes: false,
                    unchecked: false))
        case .uncheckedCancellable(let name):
            return .success(
                Stopper(typeName: name, method: "cancel", discardsResult: false, resumes: false, unchecked: true))
        case .workItem:
            return .failure(.workItem)
        case .notSendable(let name, let method):
            return .failure(.notSendable(name, method))
        case .isolated(let name, let method, let isolation):
            return .failure(.isolated("\(name).\(method.name)()", isolation))
        case .unknown(let name):
            return .failure(.unknown(name))
        case .noCancel(let name):
            return .failure(.noCancel(name))
        case .value(let spelled):
            return .failure(.value(spelled))
        }
    }

    /// Why a returned value does not stop the operation (from any thread).
    enum StopProblem: Error {
        case workItem
        /// The handle's type, and the method that would stop it.
        case notSendable(String, SourceIndex.CancelMethod)
        /// The stop method (`Type.method()`), which a closure that is not isolated cannot call.
        case isolated(String, SourceIndex.CallIsolation)
        case unknown(String)
        case noCancel(String)
        case value(String)
    }

    /// What a form's documentation says when nothing stops the operation (completed with
    /// the reason, or a period).
    static let notStopped =
        "Cancelling the awaiting task ends the wait but does not stop the operation, whose result is then dropped"

    /// The call, and what to do with what it returns: wire a cancel handle to the
    /// promise's cancel requests, or discard a value.
    ///
    /// A handle that is not `Sendable` is still cancelled when `sendsArguments` is true:
    /// every argument of the call is `Sendable`, so the handle the call returns belongs to
    /// no one else, and `cancelOnRequest` (which takes a `sending` closure and runs it in
    /// the caller's isolation) can have it.
    private func callWithHandle(
        _ site: FunctionSite, call: CallText, promise: String, sendsArguments: Bool = false
    ) -> ([String], HandleNote?, Bool) {
        let indent = site.memberIndent + 8
        func rendered(_ prefix: String) -> [String] {
            var call = call
            call.prefix = prefix
            return call.lines(indent: indent)
        }
        guard let stop = stopper(site) else { return (rendered(""), nil, false) }
        let optional = site.returnType.map { TypeText.optionalWrapped($0) != nil } ?? false
        let chain = optional ? "?" : ""
        let returned = "`\(site.selectorText)` returns"
        func assigned(_ name: String, unchecked: Bool = false) -> [String] {
            guard unchecked else { return rendered("let \(name) = ") }
            let cancellable = site.freshName("cancellable", avoiding: [promise, name])
            return rendered("let \(cancellable) = ") + ["let \(name) = UncheckedCancelHandle(\(cancellable))"]
        }
        func discarded(_ comment: String) -> [String] {
            // (A paired `stop…()` that cannot be called leaves a call that returns nothing.)
            ["// " + comment] + rendered(site.returnType != nil ? "_ = " : "")
        }
        /// The call with its result discarded, and notes that say why it does not cancel.
        func notCancelled(comment: String, why: String, report: String, unresolved: String? = nil)
            -> ([String], HandleNote?, Bool)
        {
            (
                discarded("Not cancelled: " + comment),
                HandleNote(
                    documentation: Self.notStopped + why,
                    report: report + ": not cancelled", cancels: false, unresolved: unresolved),
                false
            )
        }
        switch stop {
        case .success(let stopper) where stopper.onSelf:
            var lines = rendered(site.returnType != nil ? "_ = " : "")
            lines.append("\(promise).cancelOnRequest { \(stopper.call("", chain: "")) }")
            return (
                lines,
                HandleNote(
                    documentation: "Cancelling the awaiting task calls `\(stopper.method)()`.",
                    report: "\(stopper.method)() on `\(stopper.typeName)`", cancels: true),
                false
            )
        case .success(let stopper):
            let handle = site.freshName(stopper.resumes ? "task" : "handle", avoiding: [promise])
            var lines = assigned(handle, unchecked: stopper.unchecked)
            lines.append("\(promise).cancelOnRequest { \(stopper.call(handle, chain: chain)) }")
            if stopper.resumes { lines.append("\(handle)\(chain).resume()  // URLSession tasks start suspended.") }
            let what =
                stopper.resumes
                ? "cancels the `\(stopper.typeName)`" : "calls `\(stopper.method)()` on the `\(stopper.typeName)`"
            return (
                lines,
                HandleNote(
                    documentation: "Cancelling the awaiting task \(what) that \(returned)"
                        + (stopper.resumes ? ", which is resumed here." : "."),
                    report: stopper.resumes
                        ? "cancels and resumes `\(stopper.typeName)`"
                        : stopper.method == "cancel"
                            ? "cancels `\(stopper.typeName)`" : "\(stopper.method)() on `\(stopper.typeName)`",
                    cancels: true),
                stopper.unchecked
            )
        case .failure(.workItem):
            let handle = site.freshName("workItem", avoiding: [promise])
            let wiring =
                optional
                ? ["if let \(handle) { \(promise).cancelOnRequest(\(handle)) }"]
                : ["\(promise).cancelOnRequest(\(handle))"]
            return (
                assigned(handle) + wiring,
                HandleNote(
                    documentation: "Cancelling the awaiting task cancels the `DispatchWorkItem` that \(returned).",
                    report: "cancels `DispatchWorkItem`", cancels: true),
                false
            )
        case .failure(.notSendable(let name, let method)) where sendsArguments:
            let handle = site.freshName("handle", avoiding: [promise])
            let call = (method.returnsValue ? "_ = " : "") + "\(handle)\(chain).\(method.name)()"
            return (
                assigned(handle) + ["\(promise).cancelOnRequest { \(call) }"],
                HandleNote(
                    documentation:
                        "Cancelling the awaiting task calls `\(method.name)()` on the `\(name)` that \(returned), in the caller's isolation (the `\(name)` is not `Sendable`).",
                    report: "\(method.name)() on `\(name)` (not Sendable: in the caller's isolation)", cancels: true),
                false
            )
        case .failure(.notSendable(let name, let method)):
            return notCancelled(
                comment: "`\(name)` has \(method.name)() but is not Sendable.",
                why: ": the `\(name)` that \(returned) is not `Sendable`.", report: "`\(name)` not Sendable")
        case .failure(.isolated(let method, let isolation)):
            let explained = isolation.explained(method, from: "the cancel handler")
            return notCancelled(
                comment: explained + ".", why: ": " + explained + ".", report: "`\(method)` \(isolation.short)")
        case .failure(.unknown(let name)):
            return notCancelled(
                comment: "`\(name)` is not known to have cancel().",
                why: " (the `\(name)` that \(returned) is not known to be a cancel handle).",
                report: "returns `\(name)`, not known to have cancel()", unresolved: name)
        case .failure(.noCancel(let name)):
            return notCancelled(
                comment: "`\(name)` has no cancel(), invalidate() or stop().",
                why: ": the `\(name)` that \(returned) has no `cancel()`.",
                report: "returns `\(name)`, which has no cancel()")
        case .failure(.value(let spelled)):
            return (discarded("`\(spelled)` is not a cancel handle."), nil, false)
        }
    }

    /// The bridge around the call. `withPromise` runs its body in the caller's
    /// isolation, so the same spelling serves functions on an actor and off one.
    private func bridge(_ site: FunctionSite, value: String, promise: String, lines: inout [String]) -> [String] {
        ["try await withPromise(of: \(TypeText.metatypeExpression(value))) { \(promise) in"]
            + lines.map { "    " + $0 } + ["}"]
    }

    func modifiers(_ site: FunctionSite) -> [String] {
        modifiers(site, async: false)
    }

    /// The modifiers of a generated form. An async form of a function that is not
    /// isolated is `nonisolated(nonsending)`, as the compiler imports completion-handler
    /// methods (SE-0461): it runs on the caller's actor, so non-`Sendable` arguments and
    /// the original's values stay where they are.
    func modifiers(_ site: FunctionSite, async: Bool) -> [String] {
        var result: [String] = []
        if let keyword = site.access.keyword { result.append(keyword) }
        if site.isStatic { result.append("static") }
        if async, !site.isIsolated {
            result.append("nonisolated(nonsending)")
        } else if site.isNonisolated {
            result.append("nonisolated")
        }
        return result
    }

    func genericParameters(_ site: FunctionSite) -> [String] {
        site.decl.genericParameterClause?.parameters.map { text($0.with(\.trailingComma, nil)) } ?? []
    }

    func whereRequirements(_ site: FunctionSite) -> [String] {
        site.decl.genericWhereClause?.requirements.map { text($0.with(\.trailingComma, nil)) } ?? []
    }

    func ownerKey(_ site: FunctionSite) -> String {
        (site.context.ownerName ?? "") + "|" + site.context.conditions.map(\.text).joined(separator: "&&") + "|"
    }

    /// "Async form of `f(completion:)`.", then the original documentation without the
    /// handler's parameter (nor `- Returns:`, when the original returns a handle), with
    /// `notes` before its callouts and `callouts` after them.
    func composeDocumentation(
        _ site: FunctionSite, title: String? = nil, removing removed: Set<String>, notes: [String], callouts: [String]
    ) -> [String] {
        var original = site.documentation(removingParameters: removed, removingReturns: site.returnType != nil)
        let firstCallout =
            original.firstIndex { line in
                let lower = line.lowercased()
                return ["- parameter", "- returns:", "- throws:"].contains { lower.hasPrefix($0) }
            } ?? original.endIndex
        var noteLines: [String] = []
        for note in notes { noteLines += wrapped(note) + [""] }
        if firstCallout == original.endIndex {
            if !noteLines.isEmpty, !original.isEmpty { original.append("") }
            original += noteLines.dropLast()
        } else {
            original.insert(contentsOf: noteLines, at: firstCallout)
        }
        var result = wrapped(title ?? "Async form of `\(site.selectorText)`.")
        if !original.isEmpty { result += [""] + original }
        if !callouts.isEmpty {
            if !(original.last?.hasPrefix("- ") ?? false) && !(original.last?.hasPrefix("  ") ?? false) {
                result.append("")
            }
            for callout in callouts { result += wrapped(callout) }
        }
        return result
    }

    /// A generated documentation paragraph, in lines of at most 100 characters.
    func wrapped(_ paragraph: String) -> [String] {
        var lines: [String] = []
        var current = ""
        let continuation = paragraph.hasPrefix("- ") ? "  " : ""
        for word in paragraph.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > 100 {
                lines.append(current)
                current = continuation + word
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `HTTPResult` → `httpResult`, `URL` → `url`, `Progress` → `progress`.
    func lowerCamel(_ name: String) -> String {
        guard !name.isEmpty else { return "value" }
        let upper = name.prefix(while: \.isUppercase).count
        if upper == name.count { return name.lowercased() }
        let lowered = Swift.max(1, upper - 1)
        return name.prefix(lowered).lowercased() + name.dropFirst(lowered)
    }
}
