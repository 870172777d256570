import SwiftSyntax

/// The function called has an async counterpart a call can await: the API's own async
/// function or the form the tool generates, as the generator decides for the function.
struct CounterpartCallRule: CallRule {
    static let summary =
        "The call reaches a function with one async counterpart (the API's own, `renamed:`, "
        + "`@completionHandlerAsync`, or the generated form), with its handler written at the call; a multi-shot "
        + "handler or a value that may not leave the callback is left alone."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        let kinds = Set(rewrite.matches.map { "\($0.0.kind)|\($0.0.shape.name)|\($0.0.asyncName)" })
        guard kinds.count == 1, let (entry, parameters) = rewrite.matches.first else {
            let names = rewrite.matches.map { "`\($0.0.displayName)`" }.joined(separator: ", ")
            return .leave(.ambiguous, "\(names): the receiver's type decides, and this tool has no type checker")
        }
        switch entry.kind {
        case .stream:
            return StreamCallRule.settle(rewrite, entry: entry, parameters: parameters, in: context)
        case .scoped:
            return .leave(.scoped, "`\(entry.displayName)` has a scoped form: its value stays in the callback")
        case .generated, .library, .converted:
            break
        }
        // A converted function delivered on the main queue: so must the code after its await.
        if entry.deliversOnMain { rewrite.hopsToMain = true }
        let arguments = Array(rewrite.call.arguments)
        let handler: ClosureExprSyntax?
        if let trailing = rewrite.call.trailingClosure, rewrite.call.additionalTrailingClosures.isEmpty {
            handler = trailing
        } else if rewrite.call.trailingClosure == nil, let last = arguments.last {
            handler = last.expression.as(ClosureExprSyntax.self)
        } else {
            handler = nil
        }
        guard let handler else {
            return .leave(.handlerNotClosure, "the handler is passed as a value, not written at the call")
        }
        // The callback queues the async form drops: the main queue (passed, or the default)
        // is a hop to the main actor; another queue passed at the call leaves it alone.
        for queue in entry.parameters.indices where queue != entry.handler && !entry.kept.contains(queue) {
            if let position = parameters.firstIndex(of: queue) {
                let argument = arguments[position]
                guard Self.isMainQueue(argument.expression.trimmedDescription) else {
                    return .leave(
                        .callbackQueue, "`\(argument.trimmedDescription)`: the async form has no callback queue")
                }
                rewrite.hopsToMain = true
            } else if let value = entry.parameters[queue].syntax.defaultValue?.value,
                Self.isMainQueue(value.trimmedDescription)
            {
                rewrite.hopsToMain = true
            }
        }
        rewrite.entry = entry
        rewrite.argumentParameters = parameters
        rewrite.handler = handler
        // A test's `fulfill()` or `confirmed()` goes with the expectation (``ExpectationTestRule``,
        // ``ConfirmationTestRule``).
        rewrite.body = Array(handler.statements).filter {
            $0.id != rewrite.expectation?.fulfill.id && $0.id != rewrite.confirmation?.confirmed.id
        }
        return .proceed(rewrite)
    }

    static func isMainQueue(_ expression: String) -> Bool {
        [".main", "DispatchQueue.main", "OperationQueue.main"].contains(expression)
    }

    static let examples: [CallExample] = [
        CallExample(
            "the API's own async function: the call awaits that one",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.count { result in
                        switch result {
                        case .success(let count):
                            trace.log("count \\(count)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let count = try await api.count()
                        trace.log("count \\(count)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "a multi-shot handler is left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.watch { value in
                        trace.log("changed \\(value)")
                    }
                }
                """,
            after: .leftAlone(.multiShot, "many times")),
    ]
}
