import SwiftSyntax

/// `DispatchQueue.main.async { }` around the handler's code: the code must still run on
/// the main actor. Where the context is isolated to it already, the hop disappears;
/// elsewhere the code runs in `await MainActor.run { }`.
struct MainQueueHopRule: CallRule {
    static let summary =
        "A handler whose code hops to the main queue (or a call that passes `callbackQueue: .main`) runs that code "
        + "on the main actor: inline in a @MainActor context, in `await MainActor.run { }` elsewhere."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        // `[guard let self else { return }] DispatchQueue.main.async { … }`
        var body = rewrite.body
        let guardSelf = body.first.map { WeakSelfRule.isGuardSelf($0) } ?? false
        if guardSelf { body.removeFirst() }
        guard body.count == 1, let hop = body.first?.item.as(FunctionCallExprSyntax.self),
            hop.calledExpression.trimmedDescription == "DispatchQueue.main.async", hop.arguments.isEmpty,
            let closure = hop.trailingClosure, closure.signature == nil
        else { return .proceed(rewrite) }
        rewrite.body = (guardSelf ? [rewrite.body[0]] : []) + Array(closure.statements)
        rewrite.hopsToMain = true
        return .proceed(rewrite)
    }

    /// The local `var`s of the context, declared before the call, that the handler's code
    /// uses: `await MainActor.run { [a, b] in … }` takes their values, since a `@Sendable`
    /// closure may not capture a variable. It runs before anything after the call could
    /// change them, as the handler did. A `var` declared `T!` is copied by `let v: T! = v`
    /// before the closure instead (in a capture list the copy would be a plain optional, and
    /// the code unwraps it implicitly): `unwrapped` gives its name and type. Nil when the
    /// code assigns one (it would have to assign the copy): the call is left alone.
    static func capturedVariables(_ rewrite: CallRewrite, code: [CodeBlockItemSyntax])
        -> (captured: [String], unwrapped: [(name: String, type: String)])?
    {
        guard let context = rewrite.context?.body else { return ([], []) }
        final class Finder: SyntaxVisitor {
            var names: [String] = []
            var unwrapped: [String: String] = [:]
            let end: AbsolutePosition
            init(end: AbsolutePosition) {
                self.end = end
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
                guard node.bindingSpecifier.tokenKind == .keyword(.var), node.position < end else {
                    return .skipChildren
                }
                for binding in node.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                    names.append(name)
                    if let type = binding.typeAnnotation?.type, type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                        unwrapped[name] = type.trimmedDescription
                    }
                }
                return .skipChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let finder = Finder(end: rewrite.call.position)
        if let function = context.as(FunctionDeclSyntax.self), let body = function.body {
            finder.walk(body)
        } else if let closure = context.as(ClosureExprSyntax.self) {
            finder.walk(closure.statements)
        }
        let used = finder.names.filter { CallRewrite.uses($0, in: code) }
        let assignments: Set<String> = ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]
        let assigned = code.flatMap { $0.tokens(viewMode: .sourceAccurate) }.contains { token in
            guard case .identifier(let name) = token.tokenKind, used.contains(name) else { return false }
            return token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .prefixAmpersand
                || assignments.contains(token.nextToken(viewMode: .sourceAccurate)?.text ?? "")
        }
        guard !assigned else { return nil }
        let names = Array(Set(used)).sorted()
        return (
            names.filter { finder.unwrapped[$0] == nil },
            names.compactMap { name in finder.unwrapped[name].map { (name, $0) } }
        )
    }

    static let examples: [CallExample] = [
        CallExample(
            "the main queue by default: the code stays on the main actor",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.download(id: 10) { result in
                        if case .success(let text) = result {
                            trace.log("got \\(text)")
                        } else if case .failure(let error) = result {
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let text = try await api.download(id: 10)
                        await MainActor.run {
                            trace.log("got \\(text)")
                        }
                    } catch {
                        await MainActor.run {
                            trace.failed(error)
                        }
                    }
                }
                """)),
        CallExample(
            "`callbackQueue: .main` in a Task isolated to the main actor: nothing to hop",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    await Task { @MainActor in
                        api.download(id: 11, callbackQueue: .main) { result in
                            switch result {
                            case .success(let text):
                                trace.log("got \\(text)")
                            case .failure(let error):
                                trace.failed(error)
                            }
                        }
                    }.value
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    await Task { @MainActor in
                        do {
                            let text = try await api.download(id: 11)
                            trace.log("got \\(text)")
                        } catch {
                            trace.failed(error)
                        }
                    }.value
                }
                """)),
        CallExample(
            "another callback queue passed at the call: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace, queue: DispatchQueue) async {
                    api.download(id: 12, callbackQueue: queue) { result in
                        switch result {
                        case .success(let text):
                            trace.log("got \\(text)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .leftAlone(.callbackQueue, "`callbackQueue: queue`")),
        CallExample(
            "in a @MainActor function the hop disappears",
            before: """
                @MainActor
                func run(api: FakeAPI, trace: Trace) async {
                    api.fetch(id: 3) { value, error in
                        DispatchQueue.main.async {
                            if let error {
                                trace.failed(error)
                                return
                            }
                            guard let value else { return }
                            trace.log("got \\(value)")
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                @MainActor
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await api.fetch(id: 3)
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "elsewhere the code runs in MainActor.run",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.load(id: 4) { result in
                        DispatchQueue.main.async {
                            switch result {
                            case .success(let value):
                                trace.log("got \\(value)")
                            case .failure(let error):
                                trace.failed(error)
                            }
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await api.load(id: 4)
                        await MainActor.run {
                            trace.log("got \\(value)")
                        }
                    } catch {
                        await MainActor.run {
                            trace.failed(error)
                        }
                    }
                }
                """)),
        CallExample(
            "default isolation MainActor: an unannotated function is on the main actor, no hop",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.fetch(id: 5) { value, error in
                        DispatchQueue.main.async {
                            if let error {
                                trace.failed(error)
                                return
                            }
                            guard let value else { return }
                            trace.log("got \\(value)")
                        }
                    }
                }
                """,
            // (`fetch`, not `load`: a cancelled `load` reports its cancellation on the thread
            // that happens to run it, which a main-actor caller makes either.)
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await api.fetch(id: 5)
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            options: .mainActorDefault),
        CallExample(
            "default isolation MainActor: `callbackQueue: .main` is the caller's own isolation",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.download(id: 13, callbackQueue: .main) { result in
                        switch result {
                        case .success(let text):
                            trace.log("got \\(text)")
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
                        let text = try await api.download(id: 13)
                        trace.log("got \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            options: .mainActorDefault),
        CallExample(
            "default isolation MainActor: a `nonisolated` function still hops",
            before: """
                nonisolated func run(api: FakeAPI, trace: Trace) async {
                    api.load(id: 6) { result in
                        DispatchQueue.main.async {
                            switch result {
                            case .success(let value):
                                trace.log("got \\(value)")
                            case .failure(let error):
                                trace.failed(error)
                            }
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                nonisolated func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await api.load(id: 6)
                        await MainActor.run {
                            trace.log("got \\(value)")
                        }
                    } catch {
                        await MainActor.run {
                            trace.failed(error)
                        }
                    }
                }
                """),
            options: .mainActorDefault),
    ]
}
