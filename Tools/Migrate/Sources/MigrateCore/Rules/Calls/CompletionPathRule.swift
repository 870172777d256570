import SwiftSyntax

/// Every path through the function reaches its completion handler exactly once, last, and
/// only through calls that become awaits: the async version is the same code with each call
/// awaited and each call of the handler a `return` or a `throw`
/// (``CompletionCallRule``). A path that never calls the handler, calls it twice, or calls
/// it before other code runs leaves the function alone, with the line.
struct CompletionPathRule: DocumentedFunctionRule {
    static let summary =
        "Each path of the function reaches its completion handler once, as its last action, directly or in the "
        + "handler of a call that has an async counterpart (itself last): the calls become awaits, the handler's "
        + "calls `return` or `throw`. A path that never calls it (a `return` in a handler with no call of it before "
        + "it in its block, a call inside an `if`, `switch` or loop not counted; `guard let self else { return }` "
        + "included), calls it twice, runs code after it, or passes `(nil, nil)` "
        + "is reported with its line and the function left alone."

    /// What the walk needs: the file's text, the counterparts, and the call rules.
    struct Walk {
        let writer: CallSiteWriter
        let counterparts: AsyncCounterparts
        let planner: CallSitePlanner
        let index: SourceIndex
        /// Whether a function of the module the call reaches is settled: nil when converted
        /// (or not of the module), else why the call cannot be awaited yet.
        let pending: (AsyncCounterparts.Entry) -> FunctionLeave?
        var function: FunctionRewrite
        /// The code after the block being walked calls the handler too.
        var laterUses = false

        func line(_ node: some SyntaxProtocol) -> Int {
            writer.converter.location(for: node.positionAfterSkippingLeadingTrivia).line
        }

        private func fail(_ reason: LeaveReason, _ node: some SyntaxProtocol, _ detail: String) -> FunctionLeave {
            FunctionLeave(reason: reason, line: line(node), detail: detail)
        }

        private func uses(_ items: [some SyntaxProtocol]) -> Bool {
            CallRewrite.uses(function.completion, in: items)
        }

        /// The lines of `items`, a path of the function: `tail` when reaching its end ends the
        /// function, `atEnd` when nothing follows it in the text.
        mutating func path(
            _ items: [CodeBlockItemSyntax], indent: String, tail: Bool, atEnd: Bool, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            var lines: [String] = []
            var bound = bound
            for (offset, item) in items.enumerated() {
                let rest = Array(items[(offset + 1)...])
                let isLast = rest.isEmpty
                if let call = completionCall(item) ?? hop(item) {
                    lines += try completion(
                        call, item: item, rest: rest, indent: indent, tail: tail, atEnd: atEnd,
                        bound: bound)
                    return lines
                }
                if let statement = item.item.as(ReturnStmtSyntax.self) {
                    throw fail(.completionNeverCalled, statement, "`return` before calling `\(function.completion)`")
                }
                if !uses([item]) {
                    if let exit = ReturnFinder.first(in: item) {
                        throw fail(.completionNeverCalled, exit, "`return` before calling `\(function.completion)`")
                    }
                    if isLast, tail {
                        throw fail(
                            .completionNeverCalled, item, "the path ends without calling `\(function.completion)`")
                    }
                    lines += writer.leadingBlank(item) + writer.block([item], indent: indent, hop: false)
                    bound.formUnion(CompletionPathRule.bindings(item))
                    continue
                }
                if let ifExpr = ErrorOnlyRule.ifExpr(item) {
                    let outer = laterUses
                    laterUses = uses(rest)
                    lines += try branches(ifExpr, item: item, indent: indent, tail: tail && isLast, bound: bound)
                    laterUses = outer
                    continue
                }
                if let guardStmt = item.item.as(GuardStmtSyntax.self) {
                    let body = try path(
                        Array(guardStmt.body.statements), indent: indent + "    ", tail: false, atEnd: false,
                        bound: bound)
                    lines += writer.leadingComments(item, indent: indent)
                    lines += [indent + "guard " + guardStmt.conditions.trimmedDescription + " else {"] + body
                    lines.append(indent + "}")
                    bound.formUnion(CompletionPathRule.bindings(item))
                    continue
                }
                if let call = CompletionPathRule.statementCall(item) {
                    guard isLast, tail else {
                        throw fail(
                            .completionReordered, item,
                            "the code after the call ran before its handler, and would run after the await")
                    }
                    lines += try awaited(call, item: item, indent: indent, atEnd: atEnd, bound: bound)
                    return lines
                }
                throw fail(
                    .completionEscapes, item,
                    "`\(function.completion)` is used in `\(item.trimmedDescription.prefix { $0 != "\n" })`")
            }
            if tail {
                // An empty path (an empty body or branch) ends without calling it too.
                throw FunctionLeave(
                    reason: .completionNeverCalled, line: items.last.map { line($0) } ?? function.line,
                    detail: "the path ends without calling `\(function.completion)`")
            }
            return lines
        }

        /// A call of the handler (or a hop around one): the outcome, with nothing after it but `return`.
        private mutating func completion(
            _ found: (call: FunctionCallExprSyntax, hop: Bool), item: CodeBlockItemSyntax, rest: [CodeBlockItemSyntax],
            indent: String, tail: Bool, atEnd: Bool, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            try checkRest(found.call, item: item, rest: rest, tail: tail)
            guard let outcome = CompletionCallRule.outcome(found.call, shape: function.shape, bound: bound) else {
                throw fail(
                    .completionEscapes, found.call,
                    "`\(found.call.trimmedDescription)`: not a value or an error this tool can show non-optional")
            }
            function.hops.append(found.hop)
            let comments =
                writer.leadingComments(item, indent: indent)
                + rest.flatMap {
                    writer.leadingComments($0, indent: indent)
                }
            return comments
                + CompletionCallRule.text(outcome, valueIsVoid: function.valueType == nil, atEnd: atEnd)
                .map { indent + $0 }
        }

        /// Nothing runs after the handler's call but `return`.
        private func checkRest(
            _ call: FunctionCallExprSyntax, item: CodeBlockItemSyntax, rest: [CodeBlockItemSyntax], tail: Bool
        ) throws(FunctionLeave) {
            if let next = rest.first, !(rest.count == 1 && CallRewrite.endsWithReturn(rest)) {
                let twice = uses(rest)
                throw fail(
                    twice ? .completionTwice : .completionReordered, next,
                    twice
                        ? "`\(function.completion)` is called again after `\(call.trimmedDescription)`"
                        : "`\(next.trimmedDescription.prefix { $0 != "\n" })` ran after the completion")
            }
            if rest.isEmpty, !tail {
                throw fail(
                    laterUses ? .completionTwice : .completionReordered, item,
                    "the code after this block ran after `\(call.trimmedDescription)`; add `return` to convert")
            }
        }

        /// `if … { } else …` whose branches reach the handler.
        private mutating func branches(
            _ ifExpr: IfExprSyntax, item: CodeBlockItemSyntax, indent: String, tail: Bool, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            var lines = writer.leadingComments(item, indent: indent)
            var current: IfExprSyntax? = ifExpr
            var keyword = "if "
            while let branch = current {
                lines.append(indent + keyword + branch.conditions.trimmedDescription + " {")
                lines += try block(
                    Array(branch.body.statements), indent: indent, tail: tail,
                    bound: bound.union(CompletionPathRule.bindings(branch.conditions)))
                current = nil
                switch branch.elseBody {
                case .ifExpr(let next):
                    current = next
                    keyword = "} else if "
                case .codeBlock(let elseBlock):
                    lines.append(indent + "} else {")
                    lines += try block(Array(elseBlock.statements), indent: indent, tail: tail, bound: bound)
                case nil:
                    if tail {
                        throw fail(.completionNeverCalled, branch, "without `else`, the path ends without a call")
                    }
                }
            }
            lines.append(indent + "}")
            return lines
        }

        /// A branch: a path when it reaches the handler, else its code as it was (falling through).
        private mutating func block(
            _ items: [CodeBlockItemSyntax], indent: String, tail: Bool, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            if uses(items) || tail {
                return try path(items, indent: indent + "    ", tail: tail, atEnd: false, bound: bound)
            }
            if let exit = items.lazy.compactMap({ ReturnFinder.first(in: $0) }).first {
                throw fail(.completionNeverCalled, exit, "`return` before calling `\(function.completion)`")
            }
            return items.flatMap { writer.leadingBlank($0) + writer.block([$0], indent: indent + "    ", hop: false) }
        }

        /// The last call of the path, with a handler that reaches the completion: awaited.
        private mutating func awaited(
            _ call: FunctionCallExprSyntax, item: CodeBlockItemSyntax, indent: String, atEnd: Bool, bound: Set<String>
        ) throws(FunctionLeave) -> [String] {
            let (name, labels) = CompletionPathRule.nameAndLabels(call)
            let trailing = call.trailingClosure != nil
            let matches = counterparts.entries(name: name, argumentLabels: labels, trailingClosure: trailing)
            guard !matches.isEmpty else {
                throw fail(.completionEscapes, call, "`\(name)` has no async counterpart")
            }
            if let handler = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self) {
                try screen(handler)
            }
            var rewrite = CallRewrite(
                call: call, file: function.file, line: line(call), context: CallContext(of: call, index: index),
                matches: matches)
            rewrite.declaringOwners = counterparts.declaringOwners(
                name: name, argumentLabels: labels, trailingClosure: trailing)
            rewrite.statement = item
            rewrite = try receiver(rewrite, name: name)
            if var pending = pending(rewrite.matches[0].0) {
                if pending.line == 0, pending.detail != PropagationRule.waiting.detail { pending.line = line(call) }
                throw pending
            }
            if let forward = try forwarded(rewrite, indent: indent, atEnd: atEnd) { return forward }
            guard case .proceed(let settled) = planner.planInner(rewrite) else {
                if case .leave(let reason, let detail) = planner.planInner(rewrite) {
                    throw fail(reason, call, "`\(name)`: \(detail)")
                }
                return []
            }
            guard let branches = settled.branches, let entry = settled.entry else { return [] }
            function.awaited.append(entry)
            function.notes += settled.notes
            let errorName = branches.errorName ?? "error"
            let text = writer.callText(settled, entry: entry)
            let awaited: String
            if let value = branches.valueName {
                awaited = "let \(value) = try await \(text)"
            } else {
                awaited = (entry.shape.valueText == nil ? "" : "_ = ") + "try await \(text)"
            }
            var values = bound
            if let value = branches.valueName { values.insert(value) }
            let moved = [branches.success, branches.failure].compactMap { items in
                items.first.map { $0.position.utf8Offset..<items.last!.endPosition.utf8Offset }
            }
            let comments =
                writer.leadingComments(item, indent: indent)
                + writer.comments(in: item, outside: moved).map { indent + $0 }
            if let hop = rethrow(branches.failure, errorName: errorName, bound: bound) {
                if let hop { function.hops.append(hop) }
                if branches.failure.isEmpty {
                    function.notes.removeAll { $0 == ValueHandlerRule.swallowed }
                    function.notes.append(CompletionPathRule.noError)
                }
                let success = try path(branches.success, indent: indent, tail: true, atEnd: atEnd, bound: values)
                return comments + [indent + awaited] + success
            }
            let success = try path(
                branches.success, indent: indent + "    ", tail: true, atEnd: false, bound: values)
            let failure = try path(
                branches.failure, indent: indent + "    ", tail: true, atEnd: false, bound: bound.union([errorName]))
            if success.contains(where: { $0.contains("try ") || $0.contains("throw ") }) {
                throw fail(
                    .handlerPattern, call,
                    "the failure code does more than pass the error on, and the success code may throw into it")
            }
            let binding = branches.errorName.map { $0 == "error" ? "" : " let \($0)" } ?? ""
            return comments + [indent + "do {", indent + "    " + awaited] + success
                + [indent + "} catch\(binding) {"] + failure + [indent + "}"]
        }

        /// The functions the call reaches by its receiver's type (``ReceiverTypeRule``), before
        /// one of the module is matched by its name: `api.save(…)` inside `Saver.save` is the
        /// API's, not itself. A receiver of unknown type is not taken for a type of the module.
        private func receiver(_ rewrite: CallRewrite, name: String) throws(FunctionLeave) -> CallRewrite {
            var rewrite = rewrite
            switch ReceiverTypeRule().decide(rewrite, in: planner.context) {
            case .leave(let reason, let detail): throw fail(reason, rewrite.call, "`\(name)`: \(detail)")
            case .proceed(let filtered): rewrite = filtered
            }
            if ReceiverType.of(rewrite.call) == .unknown {
                rewrite.matches.removeAll { match in
                    match.0.owner != nil && (match.0.kind == .converted || pending(match.0) != nil)
                }
                guard !rewrite.matches.isEmpty else {
                    throw fail(
                        .receiverUnknown, rewrite.call,
                        "`\(name)`: the receiver's type is not written, and only a type of the module declares it")
                }
            }
            return rewrite
        }

        /// A `return` in a handler (outside the closures in it) with no call of the completion
        /// before it in its block: a path that never calls the completion, whichever rule would
        /// drop the statement around it (`guard let self else { return }`, `guard let value else
        /// { return }`). A call inside a branch or a loop before it (`if ok { completion(…) }`)
        /// is not on every path to the `return`: it does not count.
        private func screen(_ handler: ClosureExprSyntax) throws(FunctionLeave) {
            for exit in ReturnFinder.all(in: handler.statements) {
                guard let item = exit.parent?.as(CodeBlockItemSyntax.self),
                    let block = item.parent?.as(CodeBlockItemListSyntax.self)
                else { continue }
                let before = block.prefix { $0.id != item.id }.filter { !Self.branches($0) }
                if !uses(Array(before) + [item]) {
                    throw fail(.completionNeverCalled, exit, "`return` before calling `\(function.completion)`")
                }
            }
        }

        /// `if`, `switch` and loops: statements whose code may not run on every path; and `guard`,
        /// whose `else` never runs on the path past it.
        private static func branches(_ item: CodeBlockItemSyntax) -> Bool {
            let node = item.item.as(ExpressionStmtSyntax.self).map { Syntax($0.expression) } ?? Syntax(item.item)
            return node.is(IfExprSyntax.self) || node.is(SwitchExprSyntax.self) || node.is(ForStmtSyntax.self)
                || node.is(WhileStmtSyntax.self) || node.is(RepeatStmtSyntax.self) || node.is(GuardStmtSyntax.self)
        }

        /// `completion(nil, nil)` anywhere in the function, for a `(T?, Error?)` handler: the async
        /// version returns a value or throws, so that path cannot be kept (its shim would deliver an
        /// error where the caller got neither).
        func screenNeither(_ body: CodeBlockSyntax) throws(FunctionLeave) {
            guard case .optionalValueAndError = function.shape,
                let call = NeitherFinder.first(in: body, completion: function.completion)
            else { return }
            throw fail(
                .completionNeither, call,
                "`\(call.trimmedDescription)` passes neither a value nor an error: the async version must return one "
                    + "or throw")
        }

        /// A handler that passes what it receives to the function's handler, of the same shape
        /// (directly or from a hop to the main queue): `return try await f(…)`.
        private mutating func forwarded(_ rewrite: CallRewrite, indent: String, atEnd: Bool) throws(FunctionLeave)
            -> [String]?
        {
            guard
                let handler = rewrite.call.trailingClosure
                    ?? rewrite.call.arguments.last?.expression.as(
                        ClosureExprSyntax.self),
                let first = handler.statements.first, let (call, hop) = completionCall(first) ?? self.hop(first),
                let names = CallRewrite.parameterNames(of: handler),
                call.arguments.map(\.expression.trimmedDescription) == names,
                case .proceed(let settled) = planner.planInner(rewrite, forwarding: true), let entry = settled.entry,
                entry.shape.name == function.shape.name, entry.shape.valueText == function.valueType
            else { return nil }
            try checkRest(call, item: first, rest: Array(handler.statements.dropFirst()), tail: true)
            function.awaited.append(entry)
            function.notes += settled.notes
            if case .optionalValueAndError = function.shape {
                function.notes.append(CompletionPathRule.neitherPassed(entry.displayName))
            }
            function.hops.append(hop)
            let text = "try await " + writer.callText(settled, entry: entry)
            let statement: [String]
            if function.valueType != nil {
                statement = ["return " + text]
            } else {
                statement = [text] + (atEnd ? [] : ["return"])
            }
            return writer.leadingComments(rewrite.statement!, indent: indent) + statement.map { indent + $0 }
        }

        /// Whether the failure code only passes the awaited call's error on (or is empty: the
        /// errors only the async form throws, for a handler without an error): nil when it does
        /// more, else whether it hopped to the main queue to do it (nil inside for empty code).
        private func rethrow(_ failure: [CodeBlockItemSyntax], errorName: String, bound: Set<String>) -> Bool?? {
            guard let first = failure.first else { return .some(nil) }
            guard failure.count == 1 || (failure.count == 2 && CallRewrite.endsWithReturn(failure)),
                let (call, hop) = completionCall(first) ?? self.hop(first),
                case .error(let error) = CompletionCallRule.outcome(
                    call, shape: function.shape, bound: bound.union([errorName])),
                error == errorName
            else { return nil }
            return .some(hop)
        }

        /// `completion(…)` as a statement.
        private func completionCall(_ item: CodeBlockItemSyntax) -> (call: FunctionCallExprSyntax, hop: Bool)? {
            guard let call = CompletionPathRule.statementCall(item),
                call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == function.completion
            else { return nil }
            return (call, false)
        }

        /// `DispatchQueue.main.async { completion(…) }` (``CompletionHopRule``).
        private func hop(_ item: CodeBlockItemSyntax) -> (call: FunctionCallExprSyntax, hop: Bool)? {
            guard let inner = CompletionHopRule.peel(item), let found = completionCall(inner) else { return nil }
            return (found.call, true)
        }
    }

    static let noError =
        "the awaited call's handler receives no error: released uncalled, it now fails the function with "
        + "`AbandonedPromiseError` (before, the completion was never called)"

    /// The note on a `(T?, Error?)` handler passed on as it came.
    static func neitherPassed(_ callee: String) -> String {
        "`(nil, nil)` passed on: where `\(callee)` calls its handler with neither a value nor an error, its async "
            + "form throws `InvalidCallbackError`, which the shim now delivers as `(nil, error)` (before, the "
            + "completion got `(nil, nil)`)"
    }

    /// `f(…)` or `x.f(…)` as a statement of its own (or `_ = f(…)`).
    static func statementCall(_ item: CodeBlockItemSyntax) -> FunctionCallExprSyntax? {
        if let call = item.item.as(FunctionCallExprSyntax.self) { return call }
        if let call = item.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self) {
            return call
        }
        if let sequence = item.item.as(SequenceExprSyntax.self), sequence.elements.count == 3,
            sequence.elements.first?.trimmedDescription == "_",
            sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) ?? false
        {
            return sequence.elements.last?.as(FunctionCallExprSyntax.self)
        }
        return nil
    }

    /// The name a call is made by, and its labels before a trailing closure.
    static func nameAndLabels(_ call: FunctionCallExprSyntax) -> (String, [String?]) {
        let name =
            call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
        return (name, call.arguments.map { $0.label?.text })
    }

    /// The names `if let` / `guard let` bind (not optional past the test).
    static func bindings(_ node: some SyntaxProtocol) -> Set<String> {
        Set(
            node.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
                guard case .identifier(let name) = token.tokenKind,
                    let binding = token.parent?.parent?.as(OptionalBindingConditionSyntax.self),
                    binding.pattern.trimmedDescription == name
                else { return nil }
                return name
            })
    }
}

/// The `return`s of a statement, outside the closures in it.
private final class ReturnFinder: SyntaxVisitor {
    var found: [ReturnStmtSyntax] = []

    static func first(in node: some SyntaxProtocol) -> ReturnStmtSyntax? {
        all(in: node).first
    }

    static func all(in node: some SyntaxProtocol) -> [ReturnStmtSyntax] {
        let finder = ReturnFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }

    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        found.append(node)
        return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// The first call `completion(nil, nil)`, closures included.
private final class NeitherFinder: SyntaxVisitor {
    let completion: String
    var found: FunctionCallExprSyntax?

    init(completion: String) {
        self.completion = completion
        super.init(viewMode: .sourceAccurate)
    }

    static func first(in node: some SyntaxProtocol, completion: String) -> FunctionCallExprSyntax? {
        let finder = NeitherFinder(completion: completion)
        finder.walk(node)
        return finder.found
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == completion,
            node.arguments.count == 2, node.arguments.allSatisfy({ $0.expression.is(NilLiteralExprSyntax.self) })
        {
            found = node
        }
        return .visitChildren
    }
}
