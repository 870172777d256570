import SwiftSyntax

/// A multi-shot handler (events, progress) whose function has a generated stream form:
/// the call becomes `for try await value in f(…) { handler's code }`, the terminal
/// completion's success code after the loop and its failure code in the `catch`.
///
/// ``CounterpartCallRule`` hands a stream counterpart to ``settle(_:entry:parameters:in:)``,
/// which finds the handlers at the call; the rules after it (handle, statement order, hop,
/// weak self) check the call as for a one-shot handler; then ``decide(_:in:)`` splits the
/// completion's code.
struct StreamCallRule: CallRule {
    static let summary =
        "A multi-shot handler of a function with a generated stream form becomes `for try await value in f(…) "
        + "{ … }`: each value's code in the loop (a `return` in it becomes `continue`), a terminal `(Error?)` "
        + "completion's success code after the loop and its failure code in the `catch`; a value that carries an "
        + "error, a hop to the main queue, code that ran on both paths, or the API's own stream is left alone."

    static let returnsLater =
        "multi-shot: the function now returns when the stream ends (before, it returned at once and the handler ran "
        + "later, once per value)"

    /// The handlers at the call of a function whose counterpart is a stream, or why it stays.
    static func settle(
        _ rewrite: CallRewrite, entry: AsyncCounterparts.Entry, parameters: [Int], in context: RuleContext
    ) -> CallStep {
        let many = "`\(entry.displayName)` calls its handler many times"
        guard let handlers = entry.stream else { return .leave(.multiShot, many) }
        guard case .value = handlers.valueShape else {
            let shape = handlers.valueShape
            return .leave(
                .multiShot,
                many
                    + (shape.carriesError
                        ? "; its \(shape.name) values would end the stream at the first error, where the handler went "
                            + "on receiving values"
                        : "; its \(shape.name) handler is not rewritten as a loop"))
        }
        switch handlers.completionShape {
        case nil, .errorOnly?, .none?: break
        case let shape?:
            return .leave(.multiShot, many + "; its \(shape.name) completion is not rewritten after a loop")
        }
        var rewrite = rewrite
        let arguments = StreamHandlers.arguments(of: rewrite.call)
        var values: ClosureExprSyntax?
        var completion: ClosureExprSyntax?
        for (argument, parameter) in zip(arguments, parameters) {
            if parameter == handlers.values || parameter == handlers.completion {
                guard let closure = argument.as(ClosureExprSyntax.self) else {
                    return .leave(.handlerNotClosure, "the handler is passed as a value, not written at the call")
                }
                if parameter == handlers.values { values = closure } else { completion = closure }
            } else if !entry.kept.contains(parameter) {
                let text = argument.trimmedDescription
                guard entry.parameters[parameter].isCallbackQueue, CounterpartCallRule.isMainQueue(text),
                    rewrite.context?.isMainActor ?? false
                else {
                    return .leave(.callbackQueue, "`\(text)`: the stream form has no callback queue")
                }
            }
        }
        // A callback queue left to its default: the main queue, where the loop runs only on the main actor.
        for queue in entry.parameters.indices where entry.parameters[queue].isCallbackQueue {
            guard !parameters.contains(queue), let value = entry.parameters[queue].syntax.defaultValue?.value,
                CounterpartCallRule.isMainQueue(value.trimmedDescription), !(rewrite.context?.isMainActor ?? false)
            else { continue }
            return .leave(
                .callbackQueue,
                "the handlers ran on the main queue (the default); the loop would run off the main actor")
        }
        guard let values else {
            return .leave(.handlerNotClosure, "the handler is passed as a value, not written at the call")
        }
        var settled = entry
        settled.kept.removeAll { $0 == handlers.values }
        rewrite.entry = settled
        rewrite.argumentParameters = parameters
        rewrite.handler = values
        rewrite.body = Array(values.statements)
        rewrite.stream = StreamCall(handlers: handlers, completion: completion)
        return .proceed(rewrite)
    }

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        guard var stream = rewrite.stream, let handler = rewrite.handler, let entry = rewrite.entry else {
            return .proceed(rewrite)
        }
        var rewrite = rewrite
        let many = "`\(entry.displayName)` calls its handler many times"
        // ``MainQueueHopRule`` peeled `DispatchQueue.main.async { }`: each value's code ran on the
        // main queue after the handler returned, later values and the completion not waiting for it.
        if rewrite.body.contains(where: { $0.parent?.parent?.id != handler.id }) {
            return .leave(.multiShot, many + "; its code hops to the main queue, where it ran after later values")
        }
        if handler.signature?.capture != nil, stream.completion == nil {
            // ``WeakSelfRule`` made `self` strong: with nothing but cancellation to end the loop, the
            // object would stay alive as long as the observation, where it was released before.
            return .leave(
                .captureList,
                "`[weak self]` on a stream with no end: the loop would keep the object alive until cancelled")
        }
        guard let names = rewrite.parameterNames, names.count == 1 else {
            return .leave(.handlerPattern, "the handler's value is not named (`$0`)")
        }
        guard let returns = StreamCall.returns(in: rewrite.body) else {
            return .leave(.handlerPattern, "a `return` in a loop of the handler: `continue` would go to that loop")
        }
        stream.returns = returns
        var branches = HandlerBranches(
            valueName: names[0] == "_" ? nil : names[0], success: [], errorName: nil, failure: [])
        if let completion = stream.completion {
            if let capture = completion.signature?.capture {
                return .leave(.captureList, "`\(capture.trimmedDescription)` captures values at the call")
            }
            guard let split = Self.split(completion, shape: stream.handlers.completionShape) else {
                return .leave(
                    .handlerPattern,
                    "the completion's code does not separate its success and failure code in a form this tool rewrites")
            }
            (branches.success, branches.errorName, branches.failure) = split
        }
        rewrite.stream = stream
        rewrite.branches = branches
        rewrite.notes.append(
            Self.returnsLater
                + (stream.completion == nil
                    ? "; only the API releasing the handler or the awaiting task's cancellation ends this stream"
                    : "; cancelling the awaiting task stops the operation and runs the failure code with "
                        + "`CancellationError`"))
        return .proceed(rewrite)
    }

    /// The completion's success code, error name and failure code: `()` runs its code on
    /// success; `(Error?)` as ``ErrorOnlyRule`` reads it, or `if let error { … }` alone.
    private static func split(_ completion: ClosureExprSyntax, shape: HandlerShape?)
        -> ([CodeBlockItemSyntax], String?, [CodeBlockItemSyntax])?
    {
        let body = Array(completion.statements)
        guard let names = CallRewrite.parameterNames(of: completion) else { return nil }
        guard case .errorOnly? = shape else { return names.isEmpty ? (body, nil, []) : nil }
        guard let first = body.first else { return ([], nil, []) }
        guard names.count == 1, names[0] != "_" else { return nil }  // the code ran on both paths
        let error = names[0]
        var found: ([CodeBlockItemSyntax], String, [CodeBlockItemSyntax])?
        if let (name, failure) = ErrorOnlyRule.errorFirst(first, error: error) {
            found = (Array(body.dropFirst()), name, failure)
        } else if body.count == 1, let ifExpr = ErrorOnlyRule.ifExpr(first),
            let name = CallRewrite.optionalBinding(ifExpr.conditions, of: error)
        {
            switch ifExpr.elseBody {
            case .codeBlock(let elseBlock)?: found = (Array(elseBlock.statements), name, Array(ifExpr.body.statements))
            case nil: found = ([], name, Array(ifExpr.body.statements))
            default: break
            }
        }
        guard let (success, name, failure) = found, !CallRewrite.uses(error, in: success) else { return nil }
        return (success, name == "error" ? nil : name, failure)
    }
}

extension StreamCallRule {
    static let examples: [CallExample] = [
        CallExample(
            "values in a loop; the completion's success code after it, its failure code in the catch",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    // Report the job's events.
                    api.events(id: 1) { value in
                        trace.log("event \\(value)")
                    } completion: { error in
                        if let error {
                            trace.failed(error)
                            return
                        }
                        trace.log("done")
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    // Report the job's events.
                    do {
                        for try await value in api.events(id: 1) {
                            trace.log("event \\(value)")
                        }
                        try Task.checkCancellation()
                        trace.log("done")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            notes: ["returns when the stream ends", "cancelling the awaiting task stops the operation"]),
        CallExample(
            "a `return` in the handler ends that value's code: `continue`",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.events(id: 2) { value in
                        guard value > 1 else { return }
                        trace.log("event \\(value)")
                    } completion: { error in
                        if let error {
                            trace.failed(error)
                        } else {
                            trace.log("done")
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        for try await value in api.events(id: 2) {
                            guard value > 1 else { continue }
                            trace.log("event \\(value)")
                        }
                        try Task.checkCancellation()
                        trace.log("done")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "each value's code hops to the main queue: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.events(id: 3) { value in
                        DispatchQueue.main.async {
                            trace.log("event \\(value)")
                        }
                    } completion: { error in
                        trace.log("done \\(error == nil)")
                    }
                }
                """,
            after: .leftAlone(.multiShot, "hops to the main queue")),
        CallExample(
            "the completion's code ran on both paths: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.events(id: 4) { value in
                        trace.log("event \\(value)")
                    } completion: { error in
                        trace.log("finished")
                        if let error {
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .leftAlone(.handlerPattern, "does not separate")),
    ]
}
