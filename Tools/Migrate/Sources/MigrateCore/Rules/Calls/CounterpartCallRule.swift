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
        guard handler != nil || rewrite.passesCompletionOn else {
            return .leave(.handlerNotClosure, "the handler is passed as a value, not written at the call")
        }
        // The callback queues the async form drops: the main queue (passed, or the default)
        // is a hop to the main actor; another queue passed at the call leaves it alone.
        for queue in entry.parameters.indices where queue != entry.handler && !entry.kept.contains(queue) {
            if let position = parameters.firstIndex(of: queue) {
                let argument = arguments[position]
                // A global queue ran the code on no queue of its own, as the awaiting
                // function does when it is not isolated to an actor.
                if Self.isGlobalQueue(argument.expression), !Self.isIsolated(rewrite.call, index: context.index) {
                    rewrite.notes.append(
                        "the handler's code ran on `\(argument.expression.trimmedDescription)`; it now runs on the "
                            + "awaiting function's executor, the global concurrent one")
                    continue
                }
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
        if case .library = entry.kind,
            let missing = Self.missingDefault(entry, passed: parameters, index: context.index)
        {
            return .leave(
                .defaultedArgument,
                "the call leaves `\(missing):` to the completion form's default; its async function has none")
        }
        rewrite.entry = entry
        rewrite.argumentParameters = parameters
        rewrite.handler = handler
        // A test's `fulfill()` or `confirmed()` goes with the expectation (``ExpectationTestRule``,
        // ``ConfirmationTestRule``).
        let fulfills = Set(rewrite.expectation?.fulfills.map(\.id) ?? [])
        rewrite.body = (handler.map { Array($0.statements) } ?? []).filter {
            !fulfills.contains($0.id) && $0.id != rewrite.confirmation?.confirmed.id
        }
        return .proceed(rewrite)
    }

    /// The label of a parameter the call leaves out (to the completion form's default) that
    /// the API's own async function (found in the owner or its supertypes) does not default;
    /// nil when it defaults every one, or the call passes them all.
    static func missingDefault(_ entry: AsyncCounterparts.Entry, passed: [Int], index: SourceIndex) -> String? {
        let omitted = entry.kept.filter { !passed.contains($0) }
        guard let first = omitted.first else { return nil }
        let labels = entry.kept.map { entry.parameters[$0].label }
        let defaults = index.selfAndSupertypes(entry.owner).flatMap { index.entries(owner: $0, name: entry.asyncName) }
            .contains { sibling in
                sibling.isAsync && sibling.labels == labels
                    && omitted.allSatisfy { sibling.defaulted[entry.kept.firstIndex(of: $0)!] }
            }
        return defaults ? nil : entry.parameters[first].label ?? "_"
    }

    /// Whether code at `node` may be isolated to an actor: it is in an actor, or something
    /// around it (a function, closure or type, or the type an extension extends) has a
    /// global actor attribute, or the module's default isolation covers it.
    static func isIsolated(_ node: some SyntaxProtocol, index: SourceIndex) -> Bool {
        var current = node.parent
        while let syntax = current {
            if syntax.is(ActorDeclSyntax.self) { return true }
            if let function = syntax.as(FunctionDeclSyntax.self), index.globalActorAttribute(function.attributes) != nil
            {
                return true
            }
            if let closure = syntax.as(ClosureExprSyntax.self), let signature = closure.signature,
                index.globalActorAttribute(signature.attributes) != nil
            {
                return true
            }
            if let group = syntax.asProtocol(DeclGroupSyntax.self) {
                if index.globalActorAttribute(group.attributes) != nil { return true }
                let name =
                    syntax.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription
                    ?? syntax.asProtocol(NamedDeclSyntax.self)?.name.text
                if let name, let info = index.typeInfo(name), info.globalActor != nil || info.kind == .actor {
                    return true
                }
            }
            current = syntax.parent
        }
        return index.defaultActor(at: node) != nil
    }

    /// `.global()`, `.global(qos: .background)`, `DispatchQueue.global(…)`.
    static func isGlobalQueue(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil else { return false }
        return [".global", "DispatchQueue.global"].contains(call.calledExpression.trimmedDescription)
    }

    static func isMainQueue(_ expression: String) -> Bool {
        [".main", "DispatchQueue.main", "OperationQueue.main"].contains(expression)
    }

    /// A call whose handler runs on a global queue: its code ran on no queue of its own.
    private static let globalQueueCall = """
        func run(api: FakeAPI, trace: Trace) async {
            api.download(id: 12, callbackQueue: .global(qos: .background)) { result in
                switch result {
                case .success(let text):
                    trace.log("got \\(text)")
                case .failure(let error):
                    trace.failed(error)
                }
            }
        }
        """

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
            "`callbackQueue: .global()` outside actors: the code ran on no queue of its own",
            before: globalQueueCall,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let text = try await api.download(id: 12)
                        trace.log("got \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            notes: ["global concurrent"]),
        CallExample(
            "default isolation MainActor: `callbackQueue: .global()` in an unannotated function, left alone",
            before: globalQueueCall,
            after: .leftAlone(.callbackQueue, "`callbackQueue: .global(qos: .background)`"), options: .mainActorDefault),
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
