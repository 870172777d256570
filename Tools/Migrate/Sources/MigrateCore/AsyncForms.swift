import SwiftSyntax

/// Plans the `async throws` form of a completion-handler function.
///
/// The form is always `throws`, whatever the handler's shape: a handler that is
/// released without being called must end the wait with `AbandonedPromiseError`, and a
/// cancelled task with `CancellationError`.
struct AsyncFormPlanner {
    let index: SourceIndex
    let options: MigrationOptions

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

    /// A parameter spelled with a generic type alias (`Completion<Int>`), which this
    /// tool does not expand.
    private func genericAlias(_ parameter: Parameter) -> String? {
        var type = parameter.type
        if let attributed = type.as(AttributedTypeSyntax.self) { type = attributed.baseType }
        if let wrapped = TypeText.optionalWrapped(type) { type = wrapped }
        guard let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause != nil,
            index.genericAliases.contains(identifier.name.text)
        else { return nil }
        return identifier.name.text
    }

    /// nil when the function takes no completion handler.
    func plan(_ site: FunctionSite) -> Plan? {
        let parameters = site.parameters
        let handlerIndices = parameters.indices.filter { handlerType(parameters[$0]) != nil }
        let aliasIndex = parameters.indices.last.flatMap { genericAlias(parameters[$0]) != nil ? $0 : nil }
        guard !handlerIndices.isEmpty || aliasIndex != nil else { return nil }

        if site.isAsync { return .skipped(.alreadyAsync, "async and takes a handler") }
        if site.isUnavailable { return .skipped(.unavailable, "") }
        if site.isNoasync { return .skipped(.noasync, "") }
        if site.isOptionalRequirement { return .skipped(.optionalRequirement, "") }
        if let reason = accessProblem(site) { return reason }
        let last = parameters.count - 1
        if let aliasIndex, let alias = genericAlias(parameters[aliasIndex]) {
            return .skipped(.unknownShape, "`\(alias)` is a generic type alias; spell the closure type out")
        }
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
        if ClosureName.isEvent(handlerNames) {
            return .skipped(.eventHandler, "`\(handlerNames.last!)`")
        }
        if ClosureName.registersEvents(site.name) {
            return .skipped(.eventHandler, "`\(site.name)`")
        }
        if let returnType = site.returnType, TypeText.containsFunctionType(returnType) {
            return .skipped(.returnsClosure, "`\(text(returnType))`")
        }
        for handler in handlers where !handlerType(parameters[handler])!.isEscaping {
            return .skipped(.nonEscaping, "`\(parameters[handler].label ?? parameters[handler].name)`")
        }
        if let reason = parameterProblem(site, excluding: handlers) { return reason }
        if site.isMutating { return .skipped(.mutating, "") }
        guard let shape = shape ?? HandlerShape(lastClosure) else {
            let spelled = "(" + lastClosure.parameters.map { text($0) }.joined(separator: ", ") + ") -> Void"
            return .skipped(.unknownShape, "`\(spelled)`")
        }
        if case .result = shape, index.declares("Result") {
            return .skipped(.unknownShape, "`Result` is a type of these sources, not Swift's")
        }

        // Plain form (the value is returned) or scoped form (a body runs inside the
        // callback, with a value that cannot leave it).
        var scoped = false
        let generics = Set(site.genericsInScope.keys)
        for type in shape.valueTypes {
            if case .notSendable(let culprit) = index.sendability(of: type, generics: generics) {
                guard shape.scopedArgument != nil else {
                    return .skipped(
                        .notSendable, "`\(culprit)` is not Sendable; the \(shape.name) shape has no scoped form")
                }
                scoped = true
            }
        }
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

        let wrapperLabels: [String?] =
            scoped ? site.labels : parameters.indices.filter { !handlers.contains($0) }.map { parameters[$0].label }
        if let sibling = asyncSibling(site, labels: wrapperLabels) {
            return .skipped(.hasAsyncSibling, "`\(sibling)`")
        }
        return .generated(
            scoped
                ? scopedForm(site, shape: shape, handler: last, closure: lastClosure)
                : plainForm(site, shape: shape, handlers: handlers))
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

    /// An async function with the async form's name and labels, in the owner or a
    /// protocol it conforms to.
    private func asyncSibling(_ site: FunctionSite, labels: [String?]) -> String? {
        let owner = site.context.ownerName ?? ""
        for candidate in [owner] + (owner.isEmpty ? [] : index.allConformances(of: owner)) {
            if index.entries(owner: candidate, name: site.name, labels: labels).contains(where: \.isAsync) {
                return (candidate.isEmpty ? "" : candidate + ".") + selector(site.name, labels) + " async"
            }
        }
        return nil
    }

    // MARK: - Plain form

    private func plainForm(_ site: FunctionSite, shape: HandlerShape, handlers: [Int]) -> GeneratedMember {
        let promise = site.freshName("promise")
        var arguments: [String] = []
        for (offset, parameter) in site.parameters.enumerated() {
            guard handlers.contains(offset) else {
                arguments.append(parameter.argument)
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
        let call = (site.isThrowing ? "try " : "") + site.name + "(" + arguments.joined(separator: ", ") + ")"
        var (callLines, handleNote, needsUnchecked) = callWithHandle(site, call: call, promise: promise)
        let value = shape.valueText ?? "Void"
        let body = bridge(site, value: value, promise: promise, lines: &callLines)

        let removed = Set(handlers.flatMap { [site.parameters[$0].name, site.parameters[$0].label].compactMap { $0 } })
        let documentation = composeDocumentation(
            site, removing: removed, notes: handleNote.map { [$0.documentation] } ?? [], callouts: [])

        let kept = site.parameters.indices.filter { !handlers.contains($0) }.map { site.parameters[$0] }
        let declaration = DeclarationText(
            documentation: documentation,
            attributes: site.carriedAttributes,
            modifiers: modifiers(site),
            name: site.name,
            genericParameters: genericParameters(site),
            parameters: kept.map(\.declaration),
            effects: "async throws",
            returnType: shape.valueText,
            whereRequirements: whereRequirements(site) + site.sendableRequirements(for: shape.valueTypes),
            body: body)
        let memberKey =
            site.name + "(" + kept.map { ($0.label ?? "_") + ":" + text($0.type) }.joined(separator: ",") + ")"
        var note = shape.name
        if let handleNote { note += "; " + handleNote.report }
        return GeneratedMember(
            site: site, lines: declaration.lines(indent: site.context.owner == nil ? 0 : 4),
            signatureKey: ownerKey(site) + memberKey, memberKey: memberKey, note: note,
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

        // The body's type: the handler's attributes, its value in, the output out.
        let attributes = (["@escaping"] + closure.carriedAttributes).joined(separator: " ")
        let bodyType = "\(attributes) (\(argumentType.map { text($0) } ?? "")) throws -> \(output)"
        var bodyDeclaration = parameter.syntax.firstName.text
        if let second = parameter.syntax.secondName { bodyDeclaration += " " + second.text }
        bodyDeclaration += ": " + bodyType

        // The call: the original, with a handler that runs the body.
        let resultType = index.declares("Result") ? "Swift.Result" : "Result"
        let others = site.parameters.indices.filter { $0 != handler }.map { site.parameters[$0].argument }
        var call = (site.isThrowing ? "try " : "") + site.name
        if !others.isEmpty { call += "(" + others.joined(separator: ", ") + ")" }
        var closureLines: [String]
        if let argumentType {
            let preferred =
                closure.parameterNames.first.flatMap { $0 }
                ?? (isResult ? "result" : lowerCamel(TypeText.simpleName(argumentType) ?? "value"))
            let argument = site.freshName(preferred, avoiding: [output, promise])
            let use = isResult ? "\(argument).get()" : argument
            closureLines = [
                call + " { \(argument) in",
                "    \(promise).resolve(\(resultType) { try \(parameter.name)(\(use)) })",
                "}",
            ]
        } else {
            closureLines = [call + " { \(promise).resolve(\(resultType) { try \(parameter.name)() }) }"]
        }
        var (callLines, handleNote, needsUnchecked) = callWithHandle(site, callLines: closureLines, promise: promise)
        let body = bridge(site, value: output, promise: promise, lines: &callLines)

        let received = argumentType.map { "with the `\(text($0))` it receives (which may not leave the callback)" }
        let documentation = composeDocumentation(
            site, removing: Set([parameter.name, parameter.label].compactMap { $0 }),
            notes: handleNote.map { [$0.documentation] } ?? [],
            callouts: [
                "- Parameter \(parameter.name): Runs inside the callback" + (received.map { ", " + $0 } ?? "")
                    + ". What it returns is returned; what it throws is thrown."
            ])

        var parameters = site.parameters.map(\.declaration)
        parameters[handler] = bodyDeclaration
        let declaration = DeclarationText(
            documentation: documentation,
            attributes: site.carriedAttributes,
            modifiers: modifiers(site),
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
            site: site, lines: declaration.lines(indent: site.context.owner == nil ? 0 : 4),
            signatureKey: ownerKey(site) + memberKey, memberKey: memberKey, note: note,
            needsUncheckedHandle: needsUnchecked)
    }

    // MARK: - Shared pieces

    struct HandleNote {
        var documentation: String
        var report: String
    }

    private func callWithHandle(_ site: FunctionSite, call: String, promise: String) -> ([String], HandleNote?, Bool) {
        callWithHandle(site, callLines: [call], promise: promise)
    }

    /// The call, and what to do with what it returns: wire a cancel handle to the
    /// promise's cancel requests, or discard a value.
    private func callWithHandle(_ site: FunctionSite, callLines: [String], promise: String)
        -> ([String], HandleNote?, Bool)
    {
        guard let returnType = site.returnType else { return (callLines, nil, false) }
        let optional = TypeText.optionalWrapped(returnType) != nil
        let chain = optional ? "?" : ""
        let returned = "`\(site.selectorText)` returns"
        func assigned(_ name: String, _ lines: [String], wrap: String? = nil) -> [String] {
            var lines = lines
            if let wrap {
                lines[0] = "let \(name) = \(wrap)(" + lines[0]
                lines[lines.count - 1] += ")"
            } else {
                lines[0] = "let \(name) = " + lines[0]
            }
            return lines
        }
        func discarded(_ comment: String) -> [String] {
            var lines = callLines
            lines[0] = "_ = " + lines[0]
            return ["// " + comment] + lines
        }
        switch index.handle(returnType) {
        case .urlSessionTask(let name):
            let task = site.freshName("task", avoiding: [promise])
            return (
                assigned(task, callLines) + [
                    "\(promise).cancelOnRequest { \(task)\(chain).cancel() }",
                    "\(task)\(chain).resume()  // URLSession tasks start suspended.",
                ],
                HandleNote(
                    documentation:
                        "Cancelling the awaiting task cancels the `\(name)` that \(returned), which is resumed here.",
                    report: "cancels and resumes `\(name)`"),
                false
            )
        case .cancellable(let name):
            let handle = site.freshName("handle", avoiding: [promise])
            return (
                assigned(handle, callLines) + ["\(promise).cancelOnRequest { \(handle)\(chain).cancel() }"],
                HandleNote(
                    documentation: "Cancelling the awaiting task calls `cancel()` on the `\(name)` that \(returned).",
                    report: "cancels `\(name)`"),
                false
            )
        case .workItem:
            let handle = site.freshName("workItem", avoiding: [promise])
            let wiring =
                optional
                ? ["if let \(handle) { \(promise).cancelOnRequest(\(handle)) }"]
                : ["\(promise).cancelOnRequest(\(handle))"]
            return (
                assigned(handle, callLines) + wiring,
                HandleNote(
                    documentation: "Cancelling the awaiting task cancels the `DispatchWorkItem` that \(returned).",
                    report: "cancels `DispatchWorkItem`"),
                false
            )
        case .uncheckedCancellable(let name):
            let handle = site.freshName("handle", avoiding: [promise])
            return (
                assigned(handle, callLines, wrap: "UncheckedCancelHandle")
                    + ["\(promise).cancelOnRequest { \(handle).value\(chain).cancel() }"],
                HandleNote(
                    documentation: "Cancelling the awaiting task calls `cancel()` on the `\(name)` that \(returned).",
                    report: "cancels `\(name)`"),
                true
            )
        case .notSendable(let name):
            return (
                discarded("Not cancelled: `\(name)` has cancel() but is not Sendable."),
                HandleNote(
                    documentation:
                        "Cancelling the awaiting task ends the wait but does not stop the operation: the `\(name)` that \(returned) is not `Sendable`.",
                    report: "`\(name)` not Sendable: not cancelled"),
                false
            )
        case .unknown(let name):
            return (
                discarded("Not cancelled: `\(name)` is not known to have cancel()."),
                HandleNote(
                    documentation:
                        "Cancelling the awaiting task ends the wait but does not stop the operation (the `\(name)` that \(returned) is not known to be a cancel handle).",
                    report: "returns `\(name)`, not known to have cancel(): not cancelled"),
                false
            )
        case .value(let spelled):
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
        var result: [String] = []
        if let keyword = site.access.keyword { result.append(keyword) }
        if site.isStatic { result.append("static") }
        if site.isNonisolated { result.append("nonisolated") }
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
    func composeDocumentation(_ site: FunctionSite, removing removed: Set<String>, notes: [String], callouts: [String])
        -> [String]
    {
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
        var result = ["Async form of `\(site.selectorText)`."]
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

    private func lowerCamel(_ name: String) -> String {
        guard let first = name.first else { return "value" }
        return first.lowercased() + name.dropFirst()
    }
}
