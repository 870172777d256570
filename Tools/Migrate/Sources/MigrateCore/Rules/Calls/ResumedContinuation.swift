import SwiftSyntax

/// A continuation whose closure only makes the call, and whose handler only resumes it with
/// what it receives: `try await withCheckedThrowingContinuation { c in f { c.resume(with: $0) } }`.
/// The whole expression (its `try` and `await` included; or the `withTaskCancellationHandler`
/// around it, whose `onCancel` cancels the call's handle) becomes `try await f()`.
struct ResumedContinuation {
    /// How the handler resumes the continuation.
    enum Form {
        /// `c.resume(with: result)`, or a `switch` on the result that resumes with each case.
        case result
        /// `c.resume(returning: value)`.
        case value
    }

    var form: Form
    /// `withCheckedContinuation { … }` and the like.
    var wrapper: FunctionCallExprSyntax
    /// What the call replaces: the wrapper with its `try` and `await`, or the bridge around it.
    var expression: ExprSyntax
    /// Statements that go with it (the declaration of the handle a bridge cancelled).
    var removed: [CodeBlockItemSyntax] = []
    /// The wrapper throws (`…ThrowingContinuation`): its `try` is already written.
    var throwing: Bool

    /// The resumed continuation the call is made in, or why a continuation around it is not one.
    /// nil: the call is not the only thing a continuation's closure does.
    static func match(_ call: FunctionCallExprSyntax, in closure: ClosureExprSyntax, wrapper: FunctionCallExprSyntax)
        -> Result<ResumedContinuation, Refusal>
    {
        guard let names = CallRewrite.parameterNames(of: closure), names.count == 1, let name = names.first,
            name != "_"
        else { return .failure(Refusal("the continuation is not named (`$0` or `_`)")) }
        guard closure.statements.count == 1, let item = closure.statements.first, Self.isCall(item, call) else {
            // The first statement that is not the call's (or the call's own, `let task = f { }`).
            let other =
                (closure.statements.first { !$0.range.contains(call.position) }
                ?? closure.statements.first { !Self.isCall($0, call) })?.trimmedDescription ?? ""
            return .failure(
                Refusal(
                    "the continuation's closure runs other code than the call (`\(other.prefix { $0 != "\n" })`): "
                        + "the awaited call would not run it"))
        }
        guard
            let handler = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self),
            let form = Self.form(of: handler, continuation: name)
        else {
            return .failure(
                Refusal(
                    "the handler does other things than resume `\(name)` with what it receives "
                        + "(`\(name).resume(with: result)`, `\(name).resume(returning: value)` or a `switch` on the "
                        + "result): that code has no place in the awaited call"))
        }
        let expression: ExprSyntax
        switch ResumedContinuation.awaited(ExprSyntax(wrapper)) {
        case .success(let awaited): expression = awaited
        case .failure(let refusal): return .failure(refusal)
        }
        let throwing = wrapper.calledExpression.trimmedDescription.hasSuffix("ThrowingContinuation")
        return .success(ResumedContinuation(form: form, wrapper: wrapper, expression: expression, throwing: throwing))
    }

    /// A refusal's detail.
    /// `node` with the plain `await` and `try` around it: what the awaited call replaces. A
    /// `try?` or `try!` around it refuses: the awaited call in its place would change what the
    /// expression gives back (an optional, a trap).
    static func awaited(_ node: ExprSyntax) -> Result<ExprSyntax, Refusal> {
        var expression = node
        while let parent = expression.parent,
            let outer = parent.as(AwaitExprSyntax.self).map(ExprSyntax.init)
                ?? parent.as(TryExprSyntax.self).flatMap({ $0.questionOrExclamationMark == nil ? ExprSyntax($0) : nil })
        {
            expression = outer
        }
        if let mark = expression.parent?.as(TryExprSyntax.self)?.questionOrExclamationMark?.text {
            return .failure(
                Refusal(
                    "the continuation is awaited under `try\(mark)`: the awaited call in its place would "
                        + (mark == "?" ? "throw where the expression gave `nil`" : "throw where the expression trapped")
                ))
        }
        return .success(expression)
    }

    struct Refusal: Error {
        var detail: String
        init(_ detail: String) { self.detail = detail }
    }

    /// The call as the statement, or as `handle = call` / `holder.handle = call`.
    private static func isCall(_ item: CodeBlockItemSyntax, _ call: FunctionCallExprSyntax) -> Bool {
        item.item.id == call.id || Self.assignment(of: call)?.statement.id == item.id
    }

    /// `target = call` as a statement: the target and the statement.
    static func assignment(of call: FunctionCallExprSyntax) -> (target: ExprSyntax, statement: CodeBlockItemSyntax)? {
        guard let sequence = call.parent?.parent?.as(SequenceExprSyntax.self), sequence.elements.count == 3,
            sequence.elements.last?.id == call.id,
            sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) ?? false,
            let target = sequence.elements.first, let item = sequence.parent?.as(CodeBlockItemSyntax.self)
        else { return nil }
        return (target, item)
    }

    /// How the handler resumes `continuation` with what it receives, if that is all it does.
    private static func form(of handler: ClosureExprSyntax, continuation: String) -> Form? {
        // No names: `$0`, if anything.
        let names = CallRewrite.parameterNames(of: handler) ?? ["$0"]
        guard names.count <= 1, handler.statements.count == 1, let statement = handler.statements.first else {
            return nil
        }
        let parameter = names.first ?? "$0"
        let text = statement.item.trimmedDescription
        if text == "\(continuation).resume(with: \(parameter))" { return .result }
        if text == "\(continuation).resume(returning: \(parameter))" { return .value }
        guard
            let switchStatement = statement.item.as(ExpressionStmtSyntax.self)?.expression.as(SwitchExprSyntax.self)
                ?? statement.item.as(SwitchExprSyntax.self),
            switchStatement.subject.trimmedDescription == parameter, switchStatement.cases.count == 2
        else { return nil }
        var resumed = Set<String>()
        for element in switchStatement.cases {
            guard let switchCase = element.as(SwitchCaseSyntax.self), switchCase.statements.count == 1,
                let label = switchCase.label.as(SwitchCaseLabelSyntax.self), label.caseItems.count == 1,
                let pattern = label.caseItems.first?.pattern.trimmedDescription
            else { return nil }
            let body = switchCase.statements.first!.item.trimmedDescription
            for (kind, argument) in [("success", "returning"), ("failure", "throwing")] {
                for bound in Self.boundNames(pattern, kind)
                where body == "\(continuation).resume(\(argument): \(bound))" {
                    resumed.insert(kind)
                }
            }
        }
        return resumed == ["success", "failure"] ? .result : nil
    }

    /// The name `.kind(let name)` or `let .kind(name)` binds.
    private static func boundNames(_ pattern: String, _ kind: String) -> [String] {
        for (prefix, suffix) in [(".\(kind)(let ", ")"), ("let .\(kind)(", ")")]
        where pattern.hasPrefix(prefix) && pattern.hasSuffix(suffix) {
            return [String(pattern.dropFirst(prefix.count).dropLast(suffix.count))]
        }
        return []
    }

    /// Whether the handler's shape is one this form resumes with: a `Result` for `.result`, a
    /// value with no error for `.value`.
    func fits(_ shape: HandlerShape) -> Bool {
        switch (form, shape) {
        case (.result, .result), (.value, .value): true
        default: false
        }
    }

    /// The behaviour notes of the rewrite.
    static func notes(cancelledHandle: String?) -> String {
        let cancellation =
            cancelledHandle.map {
                "the task's cancellation, which `onCancel` passed on to `\($0).cancel()`, still cancels the "
                    + "operation and throws `CancellationError` at once"
            } ?? "the task's cancellation, which the continuation ignored, throws `CancellationError`"
        return "the call is awaited instead of a continuation: a handler never called, which left the task suspended "
            + "for ever, now fails it with `AbandonedPromiseError`; a second call, which crashed (a continuation "
            + "resumed twice), is ignored; " + cancellation
    }
}
