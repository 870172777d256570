import SwiftSyntax

/// Future forms: a function that returns FutureBridge's `Future<T>` gets an `async throws
/// -> T` form that awaits it, so a module that adopted futures hands them to async
/// callers. Cancelling the awaiting task withdraws its interest in the future, which
/// becomes a cancel request to the promise when no one else waits.
extension AsyncFormPlanner {
    func futurePlan(_ site: FunctionSite, value: TypeSyntax) -> Plan {
        if site.isAsync { return .skipped(.alreadyAsync, "async and returns a future") }
        if site.isUnavailable { return .skipped(.unavailable, "") }
        if site.isNoasync { return .skipped(.noasync, "") }
        if let reason = accessProblem(site) { return reason }
        if options.publicOnly, site.name.hasPrefix("_") { return .skipped(.notPublic, "underscored: not public API") }
        if let reason = parameterProblem(site) { return reason }
        let labels = site.labels
        if let (reason, existing) = existingCounterpart(site, kept: Array(site.parameters.indices)) {
            return .skipped(reason, existing)
        }
        // The form has the original's name and labels: calls that today get the future
        // from async code, and use it as a whole, would get the value instead.
        let original = SourceIndex.FunctionEntry(
            labels: labels, defaulted: site.parameters.map(\.hasDefault), isAsync: false, isStatic: site.isStatic,
            parameterTypes: [], hasHandler: false, returnsStream: false, returnsValue: true)
        if let call = callSites.callTakenOver(name: site.name, reaches: { Self.accepts(original, labels: $0.labels) }) {
            return .skipped(
                .wouldBreakCalls,
                "\(call.file):\(call.line) calls `\(site.selectorText)` from async code and keeps the future")
        }

        let valueText = TypeText.isVoid(value) ? nil : text(value)
        let arguments = site.parameters.map(\.argument)
        let call = CallText(prefix: "", callee: site.tryCallee, arguments: arguments, trailing: nil)
        var body = call.lines(indent: site.memberIndent + 4)
        body[0] = "try await " + body[0].replacingOccurrences(of: "try ", with: "", options: .anchored)
        body[body.count - 1] += ".value"
        let documentation = composeDocumentation(
            site, title: "Async form of `\(site.selectorText)`: awaits the future it returns.", removing: [],
            notes: [
                "Cancelling the awaiting task withdraws its interest in the future: the promise that completes it "
                    + "gets a cancel request when nothing else waits for it."
            ],
            callouts: [
                valueText.map { _ in "- Returns: The future's value." },
                "- Throws: The future's error; `CancellationError` when the future is cancelled or the awaiting task is.",
            ].compactMap { $0 })
        let declaration = DeclarationText(
            documentation: documentation,
            attributes: attributes(site, returnsValue: valueText != nil),
            modifiers: modifiers(site, async: true),
            name: site.name,
            genericParameters: genericParameters(site),
            parameters: site.parameters.map(\.declaration),
            effects: "async throws",
            returnType: valueText,
            whereRequirements: whereRequirements(site),
            body: body)
        let memberKey = formKey(site, site.parameters)
        return .generated(
            GeneratedMember(
                site: site, lines: declaration.lines(indent: site.memberIndent),
                signatureKey: ownerKey(site) + memberKey, memberKey: memberKey, note: "Future<T>",
                form: FormInfo(kind: .future, cancels: true)))
    }
}
