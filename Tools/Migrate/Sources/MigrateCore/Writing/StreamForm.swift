import SwiftSyntax

/// The stream form: an `AsyncThrowingStream` of the handler's values.
extension AsyncFormPlanner {
    /// `mapped`: the values are not `Sendable`; the form takes a closure that makes a
    /// `Sendable` value of each, in the callback (`MappedStreamRule`), and yields that.
    func streamForm(
        _ site: FunctionSite, shape: HandlerShape, element: TypeSyntax, handler: Int, ending: StreamEnding?,
        passedBack: Int = 0, kept: [Int], stop: Stopper, finish: FinishEventRule.Verdict = .notARequest,
        mapped: Bool = false
    ) -> GeneratedMember {
        let continuation = site.freshName("continuation")
        let stream = site.freshName("stream", avoiding: [continuation])
        let handle = site.freshName(stop.resumes ? "task" : "handle", avoiding: [continuation, stream])
        // The handlers feed the stream through `end`, which finishes it when the library
        // releases them.
        let end = site.freshName("end", avoiding: [continuation, stream, handle])
        let feed = end + ".continuation"
        let transform = site.freshName("transform", avoiding: [continuation, stream, handle, end])
        let output = site.genericsInScope.keys.contains("Output") ? "MappedOutput" : "Output"
        var closure = yieldingClosure(site, shape: shape, continuation: feed, mapping: mapped ? transform : nil)
        closure.parameters.insert(contentsOf: Array(repeating: "_", count: passedBack), at: 0)
        var arguments: [String] = []
        // Made before the call: the error handler, when it comes before the values' handler;
        // the values' queue, when the request's finish event is to follow them.
        var prelude: [String] = []
        let optional = site.returnType.map { TypeText.optionalWrapped($0) != nil } ?? false
        // The request's finish events: its own, or one for each subclass that declares one.
        var finishEvents: [FinishEventRule.FinishEvent] = []
        if !stop.onSelf, !stop.unchecked, !stop.resumes, !optional {
            if case .finishes(let event) = finish { finishEvents = [event] }
            if case .finishesInSubclasses(let events) = finish { finishEvents = events }
        }
        var queue: (name: String, type: String)?
        for (offset, parameter) in site.parameters.enumerated() where offset != handler {
            let label = parameter.label.map { "\($0): " } ?? ""
            if let ending, offset == ending.index {
                // After the values' handler: a second trailing closure.
                if offset > handler {
                    let ends = ending.closure(end: end) { site.freshName($0, avoiding: [continuation, end]) }
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
            let serial = String(site.displayName.prefix { $0 != "(" })
            if !finishEvents.isEmpty, queue == nil, !kept.contains(offset), let type = parameter.queueType {
                let name = site.freshName("queue", avoiding: [continuation, stream, handle, end])
                queue = (name, type)
                prelude.append("let \(name) = " + parameter.callbackQueueArgument(serialLabel: serial))
                arguments.append(label + name)
                continue
            }
            arguments.append(
                kept.contains(offset)
                    ? parameter.argument : label + parameter.callbackQueueArgument(serialLabel: serial))
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
        callLines += finishLines(finishEvents, handle: handle, end: end, queue: queue, indent: site.memberIndent + 4)
        let chain = optional ? "?" : ""
        let elementText = mapped ? output : text(element)
        // Made before the call, which may throw: a stream's builder closure cannot.
        var body = ["let (\(stream), \(continuation)) = AsyncThrowingStream<\(elementText), any Error>.makeStream()"]
        let completes = ending.map { if case .completion = $0.kind { true } else { false } } ?? false
        // The stream's end is wired before the call (`StreamEnd` sets `onTermination`), and the
        // stop handed to it after: an end during the call stops the operation once the handle
        // exists, and an operation that ended first (its completion, its finish event, its
        // handlers released) is never stopped.
        body.append(
            "let \(end) = StreamEnd(\(continuation)"
                + (completes ? ", abandoned: AbandonedPromiseError(fileID: #fileID, line: #line))" : ")"))
        body += prelude + callLines
        // A handle that is the object the hook is attached to (`-> Self` of a class: a request)
        // is held by the caller or the library, and holds the handler: held strongly here, it
        // would keep itself, the handler and the stream alive for good (the library could never
        // release the handler). Held weakly: once the library lets it go, nothing is left to stop.
        // A token a registration returns is held strongly: its deinit may unregister.
        let weakly = !stop.onSelf && !stop.unchecked && returnsReceiverObject(site)
        body.append(
            "\(end).onStop { " + (weakly ? "[weak \(handle)] in " : "")
                + stop.call(handle, chain: weakly ? "?" : chain) + " }")
        if stop.resumes { body.append("\(handle)\(chain).resume()  // URLSession tasks start suspended.") }
        body.append("return \(stream)")

        let stops =
            stop.onSelf
            ? "calls `\(stop.method)()`"
            : stop.resumes
                ? "cancels the `\(stop.typeName)` that `\(site.selectorText)` returns"
                : "calls `\(stop.method)()` on the `\(stop.typeName)` that `\(site.selectorText)` returns"
        var note = streamNote(
            site, shape: shape, ending: ending, stops: stops, finish: finish)
        if mapped {
            note +=
                " `\(text(element))` is not Sendable, so it stays in the callback: `\(transform)` makes a Sendable"
                + " value of each, on the thread the library calls back on, and the stream yields that."
        }
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
            genericParameters: genericParameters(site) + (mapped ? ["\(output): Sendable"] : []),
            parameters: keptParameters.map(\.declaration)
                + (mapped ? ["_ \(transform): @escaping @Sendable (\(text(element))) -> \(output)"] : []),
            effects: site.isThrowing ? "throws" : "",
            returnType: "AsyncThrowingStream<\(elementText), any Error>",
            whereRequirements: whereRequirements(site) + site.sendableRequirements(for: mapped ? [] : [element]),
            body: body)
        let memberKey = formKey(site, keptParameters) + (mapped ? "+" + transform : "")
        return GeneratedMember(
            site: site, lines: declaration.lines(indent: site.memberIndent),
            signatureKey: ownerKey(site) + memberKey, memberKey: memberKey,
            note: shape.name + ", stream" + finishReport(finish) + "; ends by "
                + (stop.onSelf
                    ? "calling `\(stop.method)()`"
                    : (stop.method == "cancel" ? "cancelling" : "calling \(stop.method)() on") + " `\(stop.typeName)`"),
            form: FormInfo(kind: .stream, cancels: true),
            needsUncheckedHandle: stop.unchecked, needsStreamEnd: true)
    }

    /// Whether the function returns the object it is called on (`-> Self` of a class, as a
    /// request object's hooks do), rather than a token of its own.
    func returnsReceiverObject(_ site: FunctionSite) -> Bool {
        guard let returned = site.returnType.map({ TypeText.optionalWrapped($0) ?? $0 }),
            text(returned) == "Self", let owner = site.context.ownerName
        else { return false }
        return index.typeInfo(owner)?.kind == .class
    }

    /// What registering the finish handler may do (Alamofire resumes a request when a
    /// response handler is added, and a request made to start immediately waits for one).
    static let finishHandlerStarts =
        " Adding the finish handler, like any response handler, starts a request that waits for its first one."

    /// When the stream ends, for its documentation.
    func streamNote(
        _ site: FunctionSite, shape: HandlerShape, ending: StreamEnding?, stops: String,
        finish: FinishEventRule.Verdict = .notARequest
    ) -> String {
        let completion = ending.flatMap { ending -> String? in
            guard case .completion = ending.kind else { return nil }
            return site.parameters[ending.index].label ?? site.parameters[ending.index].name
        }
        var finishes: String
        if let completion {
            finishes =
                ", when the operation ends (`\(completion)` is called: the loop then throws the error it receives, if any)"
                + (shape.carriesError ? ", or when a value reports an error, which the loop throws" : "")
        } else if case .finishes(let event) = finish {
            finishes = ", when the request finishes (\(event.happening); that end cancels nothing)"
        } else if case .finishesInSubclasses(let events) = finish {
            let each = events.map { event in
                let subclass = event.subclass ?? ""
                return "`\(subclass).\(event.selector)`"
                    + (event.terminal.map { " reports `.\($0.case)`" } ?? " is called") + " for a `\(subclass)`"
            }
            finishes =
                ", when the request finishes (" + each.joined(separator: ", ")
                + "; that end cancels nothing; a request of another class ends only when the library "
                + "releases the handler or its consumer stops)"
        } else if case .value = shape, ending == nil {
            finishes = ""
        } else {
            finishes = ", or when the operation reports an error, which the loop throws"
        }
        if case .undetermined = finish {
            finishes +=
                "; its type declares no finish event, so the loop ends only when the library releases the handler "
                + "or its consumer stops"
        } else {
            finishes +=
                completion.map {
                    "; when the library releases the handlers without calling `\($0)`, the loop throws "
                        + "`AbandonedPromiseError`"
                } ?? "; it also ends when the library releases the handler, since no more values can come"
        }
        // The stop runs only when the stream ends before the operation does (`StreamEnd`).
        var overs = completion.map { ["`\($0)`"] } ?? []
        if finish.hasFinishEvent { overs.append("the finish event") }
        overs.append("the library's release")
        return "The stream ends when its consumer stops (leaving the loop, or cancelling the iterating task)"
            + finishes + ". When the consumer stops" + (shape.carriesError ? ", or a value reports an error" : "")
            + ", it \(stops), which stops the handler; an end by "
            + (overs.count == 1 ? overs[0] : overs.dropLast().joined(separator: ", ") + " or " + overs.last!)
            + " stops nothing: the operation is over."
            + (finish.hasFinishEvent ? Self.finishHandlerStarts : "")
    }

    /// The registration of the request's finish event, which ends the stream (without
    /// cancelling the request, which is over). Its handler runs on the values' queue, or
    /// hops to it, so that it comes after the values the library queued before it. Events
    /// of subclasses are registered on the request cast to each (`if let request = handle as? DataRequest`).
    func finishLines(
        _ events: [FinishEventRule.FinishEvent], handle: String, end: String,
        queue: (name: String, type: String)?, indent: Int
    ) -> [String] {
        guard !events.isEmpty else { return [] }
        var lines = ["// The request's end ends the stream."]
        let request = handle == "request" ? "request2" : "request"
        for (offset, event) in events.enumerated() {
            guard let subclass = event.subclass else {
                return lines + finishCall(event, on: handle, end: end, queue: queue).lines(indent: indent)
            }
            // (Body lines are relative: `indent` only measures them against the line limit.)
            lines.append((offset == 0 ? "" : "} else ") + "if let \(request) = \(handle) as? \(subclass) {")
            lines += finishCall(event, on: request, end: end, queue: queue).lines(indent: indent + 4).map {
                "    " + $0
            }
        }
        return lines + ["}"]
    }

    private func finishCall(
        _ event: FinishEventRule.FinishEvent, on handle: String, end: String, queue: (name: String, type: String)?
    ) -> CallText {
        var arguments: [String] = []
        var passesQueue = false
        for parameter in event.parameters.dropLast() where parameter.isCallbackQueue {
            let label = parameter.label.map { "\($0): " } ?? ""
            if let queue, parameter.queueType == queue.type {
                arguments.append(label + queue.name)
                passesQueue = true
            } else {
                arguments.append(label + parameter.callbackQueueArgument(serialLabel: nil))
            }
        }
        var body = ["\(end).operationEnded()"]
        if let queue, !passesQueue {
            body =
                [queue.name + (queue.type == "OperationQueue" ? ".addOperation {" : ".async {")]
                + body.map { "    " + $0 } + ["}"]
        }
        // A handler called with every event: only the last one ends the stream.
        if let condition = event.condition { body = ["if \(condition) {"] + body.map { "    " + $0 } + ["}"] }
        let closure = HandlerClosure(
            parameters: event.condition != nil ? ["value"] : Array(repeating: "_", count: event.handlerArity),
            body: body)
        return CallText(
            prefix: event.returnsValue ? "_ = " : "", callee: handle + "." + event.name, arguments: arguments,
            trailing: closure)
    }

    /// What the report says of a request object's stream.
    func finishReport(_ finish: FinishEventRule.Verdict) -> String {
        switch finish {
        case .notARequest: ""
        case .finishes(let event): "; ends with the request (`\(event.selector)`)"
        case .finishesInSubclasses(let events):
            "; ends with the request ("
                + events.map { "`\($0.subclass ?? "").\($0.selector)`" }.joined(separator: ", ") + ")"
        case .undetermined: "; no finish event declared: ends only when the handler is released or the consumer stops"
        }
    }

    /// The handler that feeds the stream: values are yielded, an error finishes it.
    /// `mapping`: the closure each value goes through first.
    func yieldingClosure(
        _ site: FunctionSite, shape: HandlerShape, continuation: String, mapping: String? = nil
    ) -> HandlerClosure {
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
            let yielded = mapping.map { "\($0)(\(value))" } ?? value
            return HandlerClosure(parameters: [value], body: ["\(continuation).yield(\(yielded))"])
        }
    }
}
