import SwiftSyntax

/// A call whose result is kept (`let task = api.load { }`) or used is left alone: the
/// awaited form returns the handler's value, not the handle. One exception: a hand-written
/// bridge, whose continuation stores the handle only for `withTaskCancellationHandler`'s
/// `onCancel` to cancel it, which the awaited form does itself.
struct KeptHandleRule: CallRule {
    static let summary =
        "The call is a statement of its own (`f { }` or `_ = f { }`); a returned handle that is kept or used is "
        + "left alone, unless a continuation the handler resumes stores it for `withTaskCancellationHandler`'s "
        + "`onCancel` to cancel, and nothing else uses it: the bridge becomes the awaited call, which cancels the "
        + "operation when the awaiting task is cancelled."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        if let resumed = rewrite.resumed { return settle(rewrite, resumed, in: context) }
        var rewrite = rewrite
        var node = Syntax(rewrite.call)
        if let sequence = node.parent?.parent?.as(SequenceExprSyntax.self), sequence.elements.count == 3,
            sequence.elements.first?.trimmedDescription == "_",
            sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) ?? false
        {
            node = Syntax(sequence)
        }
        guard let item = node.parent?.as(CodeBlockItemSyntax.self) else {
            if let binding = rewrite.call.parent?.parent?.as(PatternBindingSyntax.self) {
                let name = binding.pattern.trimmedDescription
                if let cancel = Self.cancels(name, after: rewrite.call, in: rewrite.context) {
                    return .leave(.keptHandle, "the handle is kept in `\(name)`, " + Self.laterCancel(cancel, rewrite))
                }
                return .leave(.keptHandle, "the handle is kept in `\(name)`; the awaited form returns the value")
            }
            if let (target, _) = ResumedContinuation.assignment(of: rewrite.call) {
                return .leave(
                    .keptHandle,
                    "the handle is stored in `\(target.trimmedDescription)`, where other code may cancel it later: "
                        + Self.noHandleLeft)
            }
            return .leave(.keptHandle, "the call's result is used; the awaited form returns the handler's value")
        }
        rewrite.statement = item
        return .proceed(rewrite)
    }

    /// Why a later `cancel()` of the handle does not survive the rewrite.
    static let noHandleLeft =
        "awaited, the call returns only once the operation is over and gives no handle, so a `cancel()` after it "
        + "would have nothing to cancel (only the awaiting task's cancellation stops the operation)"

    private static func laterCancel(_ cancel: Syntax, _ rewrite: CallRewrite) -> String {
        let line = SourceLocationConverter(fileName: rewrite.file, tree: cancel.root)
            .location(for: cancel.positionAfterSkippingLeadingTrivia).line
        return "and `\(cancel.trimmedDescription)` at line \(line) cancels it: " + noHandleLeft
    }

    /// `name.cancel()` (or `name?.cancel()`) in the context of `call`, after it.
    private static func cancels(_ name: String, after call: FunctionCallExprSyntax, in context: CallContext?)
        -> Syntax?
    {
        guard let body = context?.body else { return nil }
        return body.tokens(viewMode: .sourceAccurate).lazy.filter {
            $0.tokenKind == .identifier(name) && $0.position > call.endPosition
        }.compactMap { token -> Syntax? in
            var node = token.parent.map(Syntax.init)
            while let current = node, !current.is(FunctionCallExprSyntax.self) { node = current.parent }
            guard let cancel = node?.as(FunctionCallExprSyntax.self),
                ["\(name).cancel", "\(name)?.cancel", "\(name)!.cancel"].contains(
                    cancel.calledExpression.trimmedDescription)
            else { return nil }
            return Syntax(cancel)
        }.first
    }

    /// The call in a continuation its handler resumes: a handle stored for a bridge's
    /// `onCancel`, the shape the continuation resumes with, and where `try` may go.
    private func settle(_ rewrite: CallRewrite, _ resumed: ResumedContinuation, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        var resumed = resumed
        var handle: String?
        if let (target, _) = ResumedContinuation.assignment(of: rewrite.call) {
            switch CancelledHandleBridge.match(resumed, handle: target) {
            case .success(let bridged):
                resumed = bridged
                handle = target.trimmedDescription
            case .failure(let refusal):
                return .leave(.keptHandle, refusal.detail)
            }
        }
        guard let entry = rewrite.entry, resumed.fits(entry.shape) else {
            return .leave(
                .continuation,
                "the continuation resumes with what a `\(rewrite.entry?.shape.name ?? "?")` handler receives, in a "
                    + "form that is not the awaited call's value and error")
        }
        if let handle, !entry.cancels {
            return .leave(
                .keptHandle,
                "`onCancel` cancels `\(handle)`, and the awaited counterpart does not cancel the operation: "
                    + "the task's cancellation would no longer stop it")
        }
        rewrite.context = CallContext(of: resumed.expression, index: context.index)
        let catcher = Self.catcher(of: resumed.expression, in: rewrite.context)
        if !resumed.throwing, catcher == nil {
            return .leave(
                .continuation,
                "`\(resumed.wrapper.calledExpression.trimmedDescription)` does not throw, and the code around it may "
                    + "not throw `any Error` (it throws nothing, or a typed error): the awaited call throws (`AbandonedPromiseError` for a handler never called, "
                    + "`CancellationError` for a cancelled task)")
        }
        rewrite.resumed = resumed
        // The handler only resumed the continuation: the queue it ran on ran nothing else.
        rewrite.hopsToMain = false
        rewrite.branches = HandlerBranches(valueName: nil, success: [], failure: [])
        rewrite.notes.append(ResumedContinuation.notes(cancelledHandle: handle))
        if case .catchClause(let clause, let patternsFirst) = catcher {
            let line = SourceLocationConverter(fileName: rewrite.file, tree: clause.root)
                .location(for: clause.positionAfterSkippingLeadingTrivia).line
            let reached =
                patternsFirst
                ? "the `catch` clauses around the call (one whose pattern matches them first; the one for every "
                    + "error is at line \(line))"
                : "the `catch` at line \(line)"
            rewrite.notes.append(
                "`AbandonedPromiseError` and `CancellationError` now reach \(reached)"
                    + (resumed.throwing ? "" : ", which no error of the continuation reached before"))
        }
        return .proceed(rewrite)
    }

    /// What an error thrown at an expression reaches.
    private enum Catcher {
        /// The `catch` for every error of the innermost `do` around the expression that has
        /// one; `patternsFirst` when a `catch` with a pattern (of it or of a `do` inside it)
        /// sees the error first.
        case catchClause(CatchClauseSyntax, patternsFirst: Bool)
        /// The throwing function or closure's caller.
        case caller
    }

    /// Where an error thrown at `expression` goes, nil where `try` of any error may not be
    /// written there: a `do` with a `catch` for every error around it, or its throwing
    /// function's or closure's caller (not a typed `throws(E)`, which `any Error` cannot reach).
    private static func catcher(of expression: ExprSyntax, in context: CallContext?) -> Catcher? {
        var node = expression.parent
        var previous = Syntax(expression)
        var patternsFirst = false
        while let current = node, current.id != context?.body.id {
            if let statement = current.as(DoStmtSyntax.self), statement.body.id == previous.id {
                if let typed = statement.throwsClause?.type, !Self.isAnyError(typed) { return nil }
                if let all = statement.catchClauses.first(where: { $0.catchItems.isEmpty }) {
                    return .catchClause(all, patternsFirst: patternsFirst || statement.catchClauses.first?.id != all.id)
                }
                patternsFirst = patternsFirst || !statement.catchClauses.isEmpty
            }
            previous = current
            node = current.parent
        }
        guard let body = context?.body else { return nil }
        let throwsClause =
            body.as(FunctionDeclSyntax.self)?.signature.effectSpecifiers?.throwsClause
            ?? body.as(AccessorDeclSyntax.self)?.effectSpecifiers?.throwsClause
            ?? body.as(InitializerDeclSyntax.self)?.signature.effectSpecifiers?.throwsClause
            ?? body.as(ClosureExprSyntax.self)?.signature?.effectSpecifiers?.throwsClause
        guard let throwsClause else { return nil }
        if let typed = throwsClause.type, !Self.isAnyError(typed) { return nil }
        return .caller
    }

    /// `any Error` or `Error`, as a typed `throws(…)` may spell what any untyped `throws` throws.
    private static func isAnyError(_ type: TypeSyntax) -> Bool {
        ["any Error", "Error", "Swift.Error", "any Swift.Error"].contains(type.trimmedDescription)
    }

    static let examples: [CallExample] = [
        CallExample(
            "a kept handle is left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let task = api.load(id: 1) { result in
                        trace.log("\\(result)")
                    }
                    trace.keepAlive(task)
                }
                """,
            after: .leftAlone(.keptHandle, "kept in `task`")),
        CallExample(
            "a discarded handle: the awaiting task's cancellation cancels the operation",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    _ = api.load(id: 2) { result in
                        switch result {
                        case .success(let value):
                            trace.log("got \\(value)")
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
                        let value = try await api.load(id: 2)
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "a bridge: the handle only `onCancel` cancels, which the awaited call does itself",
            before: """
                func text(api: FakeAPI, id: Int) async throws -> String {
                    nonisolated(unsafe) var task: FakeTask?
                    return try await withTaskCancellationHandler {
                        try await withCheckedThrowingContinuation { continuation in
                            task = api.request(id: id) { result in
                                continuation.resume(with: result)
                            }
                        }
                    } onCancel: {
                        task?.cancel()
                    }
                }

                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await text(api: api, id: 3)
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """,
            after: .rewritten(
                """
                func text(api: FakeAPI, id: Int) async throws -> String {
                    return try await api.request(id: id)
                }

                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await text(api: api, id: 3)
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            notes: ["`onCancel` passed on to `task.cancel()`", "`AbandonedPromiseError`"]),
        CallExample(
            "a bridge with a holder, `operation:` and `onCancel:` arguments, a `switch`",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let box = FakeHandleBox()
                    do {
                        let value = try await withTaskCancellationHandler(
                            operation: {
                                try await withCheckedThrowingContinuation { continuation in
                                    box.task = api.request(id: 4) { result in
                                        switch result {
                                        case .success(let text): continuation.resume(returning: text)
                                        case .failure(let error): continuation.resume(throwing: error)
                                        }
                                    }
                                }
                            },
                            onCancel: { box.task?.cancel() })
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await api.request(id: 4)
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "a handle cancelled later in the same function: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let task = api.load(id: 5) { result in
                        trace.log("\\(result)")
                    }
                    if !trace.isEnabled {
                        task.cancel()
                    }
                }
                """,
            after: .leftAlone(.keptHandle, "`task.cancel()` at line 6 cancels it: awaited, the call returns only once")),
        CallExample(
            "a handle stored in a property, which other code may cancel: left alone",
            before: """
                final class Loader {
                    var task: FakeTask?

                    func run(api: FakeAPI, trace: Trace) async {
                        task = api.load(id: 6) { result in
                            trace.log("\\(result)")
                        }
                    }

                    func stop() {
                        task?.cancel()
                    }
                }
                """,
            after: .leftAlone(.keptHandle, "stored in `task`, where other code may cancel it later")),
        CallExample(
            "a bridge whose handle a timeout also cancels: left alone",
            before: """
                func text(api: FakeAPI, id: Int) async throws -> String {
                    let box = FakeHandleBox()
                    Task {
                        try await Task.sleep(for: .seconds(10))
                        box.task?.cancel()
                    }
                    return try await withTaskCancellationHandler {
                        try await withCheckedThrowingContinuation { continuation in
                            box.task = api.request(id: id) { result in
                                continuation.resume(with: result)
                            }
                        }
                    } onCancel: {
                        box.task?.cancel()
                    }
                }
                """,
            after: .leftAlone(.keptHandle, "is used besides `onCancel` (`box.task?.cancel()`)")),
        CallExample(
            "a bridge whose `onCancel` captures the handle before it is stored: it cancels nothing, left alone",
            before: """
                func text(api: FakeAPI, id: Int) async throws -> String {
                    nonisolated(unsafe) var task: FakeTask?
                    return try await withTaskCancellationHandler {
                        try await withCheckedThrowingContinuation { continuation in
                            task = api.request(id: id) { result in
                                continuation.resume(with: result)
                            }
                        }
                    } onCancel: { [task] in
                        task?.cancel()
                    }
                }
                """,
            after: .leftAlone(.keptHandle, "today it cancels nothing")),
    ]
}
