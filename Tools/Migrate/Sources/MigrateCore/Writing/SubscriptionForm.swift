import SwiftSyntax

/// The stream form of a subscription with a receiver (``SubscriptionRule``).
extension AsyncFormPlanner {
    func subscriptionPlan(_ site: FunctionSite, receiver: Int, handlers: [Int]) -> Plan {
        let kept = keptParameters(site, removing: handlers)
        let subscription: SubscriptionRule.Subscription
        switch SubscriptionRule().decide((site, receiver, handlers, kept), in: context) {
        case .skipped(let reason, let detail): return .skipped(reason, detail)
        case .subscription(let found): subscription = found
        }
        if let (reason, existing) = existingCounterpart(site, kept: kept) { return .skipped(reason, existing) }
        if let clash = callClash(site, labels: kept.map { site.parameters[$0].label }) {
            return .skipped(.wouldBreakCalls, clash)
        }
        return .generated(subscriptionForm(site, subscription: subscription, receiver: receiver, kept: kept))
    }

    func subscriptionForm(
        _ site: FunctionSite, subscription: SubscriptionRule.Subscription, receiver: Int, kept: [Int]
    ) -> GeneratedMember {
        let continuation = site.freshName("continuation")
        let stream = site.freshName("stream", avoiding: [continuation])
        let end = site.freshName("end", avoiding: [continuation, stream])
        let receiverName = site.freshName("receiver", avoiding: [continuation, stream, end])
        let receiverParameter = site.parameters[receiver]
        let types = handlerType(receiverParameter)?.parameters ?? []
        let element = types.count == 1 ? text(types[0]) : "(" + types.map { text($0) }.joined(separator: ", ") + ")"
        let values = types.indices.map { "$\($0)" }
        let yielded = values.count == 1 ? values[0] : "(" + values.joined(separator: ", ") + ")"
        let receiverType = text(receiverParameter.type).replacingOccurrences(of: "@escaping ", with: "")
        var arguments: [String] = []
        for (offset, parameter) in site.parameters.enumerated() {
            let label = parameter.label.map { "\($0): " } ?? ""
            if offset == receiver {
                arguments.append(label + receiverName)
            } else if kept.contains(offset) {
                arguments.append(parameter.argument)
            } else if parameter.isCallbackQueue || parameter.isMultiShotFlag {
                arguments.append(label + parameter.callbackQueueArgument(serialLabel: nil))
            } else if !parameter.hasDefault {
                arguments.append(label + "nil")
            }
        }
        let unsubscribe =
            (subscription.unsubscribeReturnsValue ? "_ = " : "") + "self." + subscription.unsubscribe + "("
            + subscription.unsubscribeArguments.joined(separator: ", ") + ")"
        // The confirmation is awaited through a promise: cancelling the wait ends it at once
        // (a library whose future never completes cannot hold the task), and unsubscribes
        // what the library may still register.
        let promise = site.freshName("promise", avoiding: [continuation, stream, end, receiverName])
        let completing = subscription.completing(promise)
        // (Measured with the handler's head, which follows the call on its last line.)
        var call = CallText(prefix: "", callee: site.callee, arguments: arguments, trailing: nil)
            .lines(indent: site.memberIndent + 8 + completing[0].count)
        if call.count > 1, call[call.count - 1].hasSuffix(")") {
            // A broken call closes on its own line, which the handler follows (as swift-format writes it).
            call[call.count - 1].removeLast()
            call.append(")")
        }
        call[call.count - 1] += completing[0]
        call += completing.dropFirst()
        let body =
            [
                "let (\(stream), \(continuation)) = AsyncThrowingStream<\(element), any Error>.makeStream()",
                "let \(end) = StreamEnd(\(continuation))",
                "let \(receiverName): \(receiverType) = { \(end).continuation.yield(\(yielded)) }",
                "try await withPromise(of: Void.self) { \(promise) in",
            ] + call.map { "    " + $0 } + [
                "    \(promise).cancelOnRequest { \(unsubscribe) }",
                "}",
                // Handed over after the subscription: an end before that (the receiver
                // released) unsubscribes nothing.
                "\(end).onStop { \(unsubscribe) }",
                "return \(stream)",
            ]
        let removed = Set(
            site.parameters.indices.filter { !kept.contains($0) }.flatMap {
                [site.parameters[$0].name, site.parameters[$0].label].compactMap { $0 }
            })
        let receiverLabel = receiverParameter.label ?? receiverParameter.name
        let note =
            "The stream starts once the `\(subscription.futureName)` that `\(site.selectorText)` returns confirms "
            + "the subscription (this function throws its error). It ends when its consumer stops (leaving the "
            + "loop, or cancelling the iterating task), and then calls `\(subscription.unsubscribeSelector)` "
            + "with the same arguments; it also ends when the library releases `\(receiverLabel)`, since no "
            + "more messages can come. The other handlers are not passed."
        let documentation = composeDocumentation(
            site,
            title: "Stream form of `\(site.selectorText)`: the messages `\(receiverLabel)` receives, in order.",
            removing: removed, notes: [note],
            callouts: [
                "- Returns: The messages, in order. The stream buffers those its consumer has not taken yet.",
                "- Throws: The error of the `\(subscription.futureName)` that confirms the subscription; "
                    + "`CancellationError` when the awaiting task is cancelled first, which calls "
                    + "`\(subscription.unsubscribeSelector)` (the library may still register the subscription).",
            ])
        let keptParameters = kept.map { site.parameters[$0] }
        let declaration = DeclarationText(
            documentation: documentation,
            attributes: site.carriedAttributes,
            modifiers: modifiers(site, async: true),
            name: site.name,
            genericParameters: genericParameters(site),
            parameters: keptParameters.map(\.declaration),
            effects: "async throws",
            returnType: "AsyncThrowingStream<\(element), any Error>",
            whereRequirements: whereRequirements(site),
            body: body)
        let memberKey = formKey(site, keptParameters)
        return GeneratedMember(
            site: site, lines: declaration.lines(indent: site.memberIndent),
            signatureKey: ownerKey(site) + memberKey, memberKey: memberKey,
            note: "subscription, stream; starts when `\(subscription.futureName)` confirms it; ends by calling "
                + "`\(subscription.unsubscribeSelector)`",
            form: FormInfo(kind: .stream, cancels: true), needsStreamEnd: true)
    }
}
