import SwiftSyntax

/// The last call of a path of ``CompletionPathRule``: a call with an async counterpart whose
/// handler reaches the completion, awaited, its handler's code split by the call-site rules.
extension CompletionPathRule.Walk {
    /// The last call of the path, with a handler that reaches the completion: awaited.
    mutating func awaited(
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
        // The callee is written from its own text: `self?.api.load(…)` would stay optional.
        if call.calledExpression.tokens(viewMode: .sourceAccurate).contains(where: {
            $0.tokenKind == .postfixQuestionMark
        }) {
            throw fail(
                .captureList, call,
                "`\(name)` is called through an optional chain (`?.`): awaited, its value would be optional")
        }
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
        // Code after the handler's `switch` ran after the completion, which now returns.
        if let after = branches.tail.first {
            throw fail(
                .completionReordered, after,
                "`\(after.trimmedDescription.prefix { $0 != "\n" })` ran after the completion, in the handler of `\(name)`"
            )
        }
        function.awaited.append(entry)
        function.notes += settled.notes
        writer.replacements += settled.replacements
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

    /// A handler that passes what it receives to the function's handler, of the same shape
    /// (directly or from a hop to the main queue): `return try await f(…)`.
    private mutating func forwarded(_ rewrite: CallRewrite, indent: String, atEnd: Bool) throws(FunctionLeave)
        -> [String]?
    {
        // The completion itself passed on last (`completion: completion`): the compiler checked
        // that the call's handler takes what the function's does.
        if rewrite.call.trailingClosure == nil,
            rewrite.call.arguments.last?.expression.as(DeclReferenceExprSyntax.self)?.baseName.text
                == function.completion
        {
            var passed = rewrite
            passed.passesCompletionOn = true
            guard case .proceed(let settled) = planner.planInner(passed, forwarding: true), let entry = settled.entry,
                entry.shape.name == function.shape.name
            else { return nil }
            return awaitedForward(settled, entry: entry, hop: false, indent: indent, atEnd: atEnd)
        }
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
        return awaitedForward(settled, entry: entry, hop: hop, indent: indent, atEnd: atEnd)
    }

    /// `return try await f(…)` (or `try await f(…)` for no value) for a call that passes the
    /// completion on.
    private mutating func awaitedForward(
        _ settled: CallRewrite, entry: AsyncCounterparts.Entry, hop: Bool, indent: String, atEnd: Bool
    ) -> [String] {
        function.awaited.append(entry)
        function.notes += settled.notes
        writer.replacements += settled.replacements
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
        return writer.leadingLines(settled.statement!, indent: indent) + statement.map { indent + $0 }
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
}
