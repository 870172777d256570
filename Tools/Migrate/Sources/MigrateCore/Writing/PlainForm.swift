import SwiftSyntax

/// The plain form: the handler's value returned.
extension AsyncFormPlanner {

    /// `sendsValue`: the value is not `Sendable` and is handed to the caller as `sending`
    /// (`withPromise` then hands its body a `SendingPromise`). `passingNil`: optional handlers
    /// of values the form leaves out (it passes `nil`).
    func plainForm(
        _ site: FunctionSite, shape: HandlerShape, handlers: [Int], kept: [Int], passingNil: [Int] = [],
        sendsValue: Bool
    ) -> GeneratedMember {
        let promise = site.freshName("promise")
        var arguments: [String] = []
        var trailing: HandlerClosure?
        for (offset, parameter) in site.parameters.enumerated() {
            if !handlers.contains(offset) {
                let label = parameter.label.map { "\($0): " } ?? ""
                arguments.append(
                    kept.contains(offset)
                        ? parameter.argument
                        : label
                            + (passingNil.contains(offset) ? "nil" : parameter.callbackQueueArgument(serialLabel: nil)))
                continue
            }
            if let closure = resolvingClosure(site, shape: shape, promise: promise) {
                trailing = closure
                continue
            }
            let adapter: String
            if case .successAndFailure = shape, offset == handlers.last {
                adapter = promise + ".reject"
            } else if site.hasOverloadWithSameLabels {
                // `f(x, promise.resolve)` would be ambiguous: the other overload's handler takes
                // another of `resolve`'s shapes (Macro's `_evalAsync(on:_:_:_:)`).
                adapter = "\(promise).resolve as \(TypeText.withoutAttributes(parameter.type))"
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
        let memberKey = formKey(site, keptParameters)
        var note = shape.name
        if sendsValue { note += ", sending (the value is not known to be Sendable)" }
        if let handleNote { note += "; " + handleNote.report }
        return GeneratedMember(
            site: site, lines: declaration.lines(indent: site.memberIndent),
            signatureKey: ownerKey(site) + memberKey, memberKey: memberKey, note: note,
            form: FormInfo(
                kind: .async, cancels: handleNote?.cancels ?? false, unresolvedHandle: handleNote?.unresolved),
            needsUncheckedHandle: needsUnchecked)
    }
}
