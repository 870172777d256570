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
            return .leave(.multiShot, "`\(entry.displayName)` calls its handler many times")
        case .scoped:
            return .leave(.scoped, "`\(entry.displayName)` has a scoped form: its value stays in the callback")
        case .generated, .library:
            break
        }
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
        for (argument, parameter) in zip(arguments, parameters)
        where parameter != entry.handler && !entry.kept.contains(parameter) {
            // A callback queue: the async form has none. The main queue is a hop to the main actor.
            let queue = argument.expression.trimmedDescription
            guard queue == ".main" || queue == "DispatchQueue.main" else {
                return .leave(.callbackQueue, "`\(argument.trimmedDescription)`: the async form has no callback queue")
            }
            rewrite.hopsToMain = true
        }
        rewrite.entry = entry
        rewrite.argumentParameters = parameters
        rewrite.handler = handler
        rewrite.body = Array(handler.statements)
        return .proceed(rewrite)
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
