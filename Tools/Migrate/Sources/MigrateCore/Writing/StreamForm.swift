import SwiftSyntax

/// The stream form: an `AsyncThrowingStream` of the handler's values.
extension AsyncFormPlanner {
    func streamForm(
        _ site: FunctionSite, shape: HandlerShape, element: TypeSyntax, handler: Int, ending: StreamEnding?,
        passedBack: Int = 0, kept: [Int], stop: Stopper
    ) -> GeneratedMember {
        let continuation = site.freshName("continuation")
        let stream = site.freshName("stream", avoiding: [continuation])
        let handle = site.freshName(stop.resumes ? "task" : "handle", avoiding: [continuation, stream])
        // The handlers feed the stream through `end`, which finishes it when the library
        // releases them.
        let end = site.freshName("end", avoiding: [continuation, stream, handle])
        let feed = end + ".continuation"
        var closure = yieldingClosure(site, shape: shape, continuation: feed)
        closure.parameters.insert(contentsOf: Array(repeating: "_", count: passedBack), at: 0)
        var arguments: [String] = []
        // Made before the call: the error handler, when it comes before the values' handler.
        var prelude: [String] = []
        for (offset, parameter) in site.parameters.enumerated() where offset != handler {
            let label = parameter.label.map { "\($0): " } ?? ""
            if let ending, offset == ending.index {
                // After the values' handler: a second trailing closure.
                if offset > handler {
                    let ends = ending.closure(continuation: feed) { site.freshName($0, avoiding: [continuation, end]) }
                    closure.following = (parameter.label ?? "_", .init(ends))
                } else {
                    // A local, not a closure argument before a trailing closure (which
                    // swift-format's OnlyOneTrailingClosureArgument rejects).
                    let finish = site.freshName("finish", avoiding: [continuation, stream, handle])
                    let error = handlerType(parameter)?.parameters.first.map { text($0) } ?? "any Error"
                    prelude.append(
                        "let \(finish): @Sendable (\(error)) -> Void = { \(feed).finish(throwing: $0) }")
                    arguments.append(label + finish)
                }
                continue
            }
            arguments.append(
                kept.contains(offset)
                    ? parameter.argument
                    : label
                        + parameter.callbackQueueArgument(serialLabel: String(site.displayName.prefix { $0 != "(" })))
        }
        var call = CallText(prefix: "", callee: site.tryCallee, arguments: arguments, trailing: closure)
        var callLines: [String]
        if stop.onSelf {
            call.prefix = site.returnType != nil ? "_ = " : ""
            callLines = call.lines(indent: site.memberIndent + 4)
        } else if stop.unchecked {
            let cancellable = site.freshName("cancellable", avoiding: [continuation, stream, handle])
            call.prefix = "let \(cancellable) = "
            callLines = call.lines(indent: site.memberIndent + 4)
            callLines.append("let \(handle) = UncheckedCancelHandle(\(cancellable))")
        } else {
            call.prefix = "let \(handle) = "
            callLines = call.lines(indent: site.memberIndent + 4)
        }
        let optional = site.returnType.map { TypeText.optionalWrapped($0) != nil } ?? false
        let chain = optional ? "?" : ""
        let elementText = text(element)
        // Made before the call, which may throw: a stream's builder closure cannot.
        var body = ["let (\(stream), \(continuation)) = AsyncThrowingStream<\(elementText), any Error>.makeStream()"]
        let completes = ending.map { if case .completion = $0.kind { true } else { false } } ?? false
        body.append(
            "let \(end) = StreamEnd(\(continuation)"
                + (completes ? ", abandoned: AbandonedPromiseError(fileID: #fileID, line: #line))" : ")"))
        body += prelude + callLines
        body.append("\(continuation).onTermination = { _ in \(stop.call(handle, chain: chain)) }")
        if stop.resumes { body.append("\(handle)\(chain).resume()  // URLSession tasks start suspended.") }
        body.append("return \(stream)")

        let stops =
            stop.onSelf
            ? "calls `\(stop.method)()`"
            : stop.resumes
                ? "cancels the `\(stop.typeName)` that `\(site.selectorText)` returns"
                : "calls `\(stop.method)()` on the `\(stop.typeName)` that `\(site.selectorText)` returns"
        let note = streamNote(site, shape: shape, ending: ending, stops: stops)
        let removed = Set(
            site.parameters.indices.filter { !kept.contains($0) }.flatMap {
                [site.parameters[$0].name, site.parameters[$0].label].compactMap { $0 }
            })
        let documentation = composeDocumentation(
            site,
            title: "Stream form of `\(site.selectorText)`: the values its handler receives, in order.",
            removing: removed, notes: [note],
            callouts: [
                "- Returns: The handler's values, in order. The stream buffers those its consumer has not taken yet."
            ])
        let keptParameters = kept.map { site.parameters[$0] }
        let declaration = DeclarationText(
            documentation: documentation,
            attributes: site.carriedAttributes,
            modifiers: modifiers(site, async: false),
            name: site.name,
            genericParameters: genericParameters(site),
            parameters: keptParameters.map(\.declaration),
            effects: site.isThrowing ? "throws" : "",
            returnType: "AsyncThrowingStream<\(elementText), any Error>",
            whereRequirements: whereRequirements(site) + site.sendableRequirements(for: [element]),
            body: body)
        let memberKey =
            site.name + "(" + keptParameters.map { ($0.label ?? "_") + ":" + text($0.type) }.joined(separator: ",")
            + ")"
        return GeneratedMember(
            site: site, lines: declaration.lines(indent: site.memberIndent),
            signatureKey: ownerKey(site) + memberKey, memberKey: memberKey,
            note: shape.name + ", stream; ends by "
                + (stop.onSelf
                    ? "calling `\(stop.method)()`"
                    : (stop.method == "cancel" ? "cancelling" : "calling \(stop.method)() on") + " `\(stop.typeName)`"),
            form: FormInfo(kind: .stream, cancels: true),
            needsUncheckedHandle: stop.unchecked, needsStreamEnd: true)
    }

    /// When the stream ends, for its documentation.
    func streamNote(_ site: FunctionSite, shape: HandlerShape, ending: StreamEnding?, stops: String) -> String {
        let completion = ending.flatMap { ending -> String? in
            guard case .completion = ending.kind else { return nil }
            return site.parameters[ending.index].label ?? site.parameters[ending.index].name
        }
        var finishes: String
        if let completion {
            finishes =
                ", when the operation ends (`\(completion)` is called: the loop then throws the error it receives, if any)"
                + (shape.carriesError ? ", or when a value reports an error, which the loop throws" : "")
        } else if case .value = shape, ending == nil {
            finishes = ""
        } else {
            finishes = ", or when the operation reports an error, which the loop throws"
        }
        finishes +=
            completion.map {
                "; when the library releases the handlers without calling `\($0)`, the loop throws "
                    + "`AbandonedPromiseError`"
            } ?? "; it also ends when the library releases the handler, since no more values can come"
        return "The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task)"
            + finishes + ". Then it \(stops), which stops the handler."
    }

    /// The handler that feeds the stream: values are yielded, an error finishes it.
    func yieldingClosure(_ site: FunctionSite, shape: HandlerShape, continuation: String) -> HandlerClosure {
        // (A stream's handler may be called on any thread: the continuation is Sendable.)
        let value = site.freshName("value", avoiding: [continuation])
        switch shape {
        case .optionalValueAndError:
            let error = site.freshName("error", avoiding: [continuation, value])
            return HandlerClosure(
                parameters: [value, error],
                body: [
                    "if let \(error) {",
                    "    \(continuation).finish(throwing: \(error))",
                    "} else if let \(value) {",
                    "    \(continuation).yield(\(value))",
                    "}",
                ])
        case .result:
            let result = site.freshName("result", avoiding: [continuation])
            return HandlerClosure(
                parameters: [result], body: ["\(continuation).yield(with: \(result).mapError { $0 })"])
        case .carriedResult:
            let response = site.freshName("response", avoiding: [continuation])
            return HandlerClosure(
                parameters: [response], body: ["\(continuation).yield(with: \(response).result.mapError { $0 })"])
        case .carriedError:
            return HandlerClosure(
                parameters: [value],
                body: [
                    "if let error = \(value).error {",
                    "    \(continuation).finish(throwing: error)",
                    "} else {",
                    "    \(continuation).yield(\(value))",
                    "}",
                ])
        default:
            return HandlerClosure(parameters: [value], body: ["\(continuation).yield(\(value))"])
        }
    }
}
