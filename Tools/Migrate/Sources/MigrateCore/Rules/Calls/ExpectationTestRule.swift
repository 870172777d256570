import SwiftSyntax

/// A test method that waits for a call's handler with an XCTest expectation: `let done =
/// expectation(description:)` (or `XCTestExpectation()`), the call with a handler that
/// fulfils it, then `wait(for: [done], timeout:)` or `waitForExpectations(timeout:)` right
/// after it (or `wait(for: [done])`, where the suite declares that wait as XCTest's with a
/// timeout of its own: ``forwardingWait(_:)``). The method becomes
/// `async throws`, awaits the call with the handler's code (its assertions) in the same
/// order, then the statements after the wait (they ran after the handler had fulfilled the
/// expectation, its last statement, and read what it set; a later phase of the test, with an
/// expectation of its own, is awaited by the next pass); the expectation's lines go.
/// ``ExpectationPaths`` checks that every path through the handler ends the test as before;
/// with statements after the wait, the handler may not `return` (that `return` would now
/// skip them), those statements may not use the expectation, nor declare a name the
/// handler's code, now beside them, declares. A helper that waits, called by tests, is
/// converted with its callers (``WaitingHelper``) or left alone.
struct ExpectationTestRule: CallRule {
    static let summary =
        "A synchronous test method that creates an expectation, fulfils it where the handler ends and waits for it "
        + "right after the call (or with `XCTestExpectation()`, and the suite's own `wait(for:)` that only forwards "
        + "with a timeout) becomes `async throws` and awaits the call, the code after the wait following it "
        + "(not if that code uses the expectation or declares a name the handler's code declares); an "
        + "inverted expectation, an "
        + "expected fulfilment count, a path that neither fulfils nor fails (each `#if` clause is a path), a wait "
        + "for several or an `override` leave it alone. A helper that waits (ending with `return value` after the "
        + "wait) becomes `async throws` together with every call of it, each in a test method of its file that "
        + "becomes `async throws` (in an assertion, hoisted before it when the order is kept), or none."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard let function = rewrite.context?.body.as(FunctionDeclSyntax.self),
            let body = function.body, let item = rewrite.call.parent?.as(CodeBlockItemSyntax.self),
            let list = item.parent?.as(CodeBlockItemListSyntax.self), Self.isStatementBlock(list, of: body)
        else { return .proceed(rewrite) }
        // A block in a loop, an `if` or a `do`: what follows it, and the loop's next round,
        // ran after the wait too.
        let nested = list.id != body.statements.id
        let items = Array(list)
        guard let position = items.firstIndex(where: { $0.id == item.id }),
            let declaration = items[..<position].last(where: { Self.expectationName($0) != nil }),
            let name = Self.expectationName(declaration)
        else { return .proceed(rewrite) }
        // An async test waits with `await fulfillment(of:)` (a pass before this one wrote it
        // above a call its handler's code started); elsewhere it is any async code.
        if rewrite.context?.isAsync ?? false {
            guard position + 1 < items.count, Self.awaitedFulfillment(items[position + 1]) == [name] else {
                return .proceed(rewrite)
            }
        }
        let leave = { (detail: String) in CallStep.leave(.expectation, detail) }
        let members = Self.members(of: name, in: body)
        if members.contains("isInverted") {
            return leave("`\(name)` is inverted: the test checks that the handler is not called")
        }
        if members.contains("expectedFulfillmentCount") {
            return leave("`\(name)` expects several fulfilments: the handler's calls are counted")
        }
        let several = { (names: [String]) in
            leave("the wait is for several expectations (`\(names.joined(separator: "`, `"))`)")
        }
        let forwarding = Self.forwardingWait(context.callSites)
        guard position + 1 < items.count, let waited = Self.waited(items[position + 1], forwarding: forwarding) else {
            // The first of several calls waited for together: they were in flight at once.
            let later = items[(position + 1)...].lazy.compactMap { Self.waited($0, forwarding: forwarding) ?? nil }
            if let names = later.first(where: { $0.contains(name) && $0.count > 1 }) { return several(names) }
            return leave("the test does not wait for `\(name)` right after the call")
        }
        let wait = items[position + 1]
        if let handler = wait.item.as(FunctionCallExprSyntax.self)?.trailingClosure, !Self.onlyChecksTimeout(handler) {
            return leave(
                "the wait's handler runs code after the wait (`\(handler.statements.trimmedDescription.prefix { $0 != "\n" })`)"
            )
        }
        if let waited, waited != [name] { return several(waited) }
        if waited == nil, declaration.trimmedDescription.contains("XCTestExpectation(") {
            return leave("`waitForExpectations` does not wait for `\(name)`, made by `XCTestExpectation(…)`")
        }
        // `waitForExpectations` waits for every expectation the method made.
        let made = items.compactMap { Self.expectationName($0) }
        if waited == nil, made.count > 1 { return several(made) }
        if waited == nil, let body = function.body, Self.expectationsMade(in: body) > 1 {
            return leave(
                "`waitForExpectations` waits for every expectation the method makes, and it makes more than "
                    + "`\(name)` (`expectation(for:…)`, `keyValueObservingExpectation`, …)")
        }
        if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) }) {
            return leave(
                "`\(function.name.text)` overrides a method XCTest calls: its signature cannot become `async throws`")
        }
        guard
            let handler = rewrite.call.trailingClosure
                ?? rewrite.call.arguments.last?.expression.as(ClosureExprSyntax.self)
        else { return leave("the handler is not written at the call") }
        // In a loop (or an `if`, a `do`), the handler's `break` or `continue` would now act on it.
        if nested, Self.jumps(in: handler) {
            return leave("a `break` or `continue` in the handler would now act on the block that waits")
        }
        // The method becomes async: its other blocking waits become `await fulfillment(of:)`.
        let others = Self.otherWaits(in: body, besides: wait)
        if let blocking = others.first(where: { Self.awaitableWait($0) == nil }) {
            let line = blocking.trimmedDescription.prefix { $0 != "\n" }
            return leave(
                "the method also waits with `\(line)`, which an async method cannot, and has no timeout to await")
        }
        var paths = ExpectationPaths(name: name, handler: handler)
        if let reason = paths.check() {
            // The handler starts the calls that fulfil it: awaited, its code runs in the test,
            // which goes on waiting for the expectation (the next pass awaits those calls).
            guard let kept = Self.keptWaiting(rewrite, function: function, name: name, handler: handler, in: context)
            else { return leave(reason) }
            // `await fulfillment(of:timeout:)` needs the timeout, which the module's own wait keeps.
            if Self.awaitedFulfillment(wait) == nil,
                wait.item.as(FunctionCallExprSyntax.self)?.arguments.contains(where: { $0.label?.text == "timeout" })
                    != true
            {
                return leave("\(reason); the wait for it would go on, and its timeout is in the module's `wait(for:)`")
            }
            if nested, Self.returns(in: handler) {
                return leave("a `return` in the handler would now skip the code after the block that waits")
            }
            rewrite.expectation = ExpectationTest(
                function: function, declaration: declaration, fulfills: [], wait: wait,
                checks: Array(items[(position + 2)...]), keepsWaiting: true, nested: nested, otherWaits: others)
            rewrite.notes.append(kept)
            rewrite.context?.isAsync = true
            return .proceed(rewrite)
        }
        // The statements after the wait ran after the handler had fulfilled it (its last
        // statement): after the awaited call's code, they still do, in the same scope.
        let checks = Array(items[(position + 2)...])
        if let mention = checks.first(where: { Self.mentions(name, in: $0) }) {
            let line = mention.trimmedDescription.prefix { $0 != "\n" }
            return leave("after the wait, `\(line)` uses `\(name)`, whose declaration goes")
        }
        let moved = Set((CallRewrite.parameterNames(of: handler) ?? []) + CallRewrite.declared(in: rewrite.body))
        if let clash = CallRewrite.declared(in: checks).first(where: moved.contains) {
            return leave(
                "after the wait, `\(clash)` is declared, and the handler's code, now beside it, declares it too")
        }
        var helper: WaitingHelper?
        if context.callSites.isCalled(function.name.text) {
            guard !(rewrite.context?.isAsync ?? false) else {
                return leave("`\(function.name.text)` waits and is called by other code")
            }
            switch WaitingHelper.callers(of: function, file: rewrite.file, in: context) {
            case .success(let callers): helper = callers
            case .failure(let reason):
                return leave("`\(function.name.text)` waits and is called by tests: \(reason.detail)")
            }
        }
        if !checks.isEmpty || nested, Self.returns(in: handler) {
            return leave(
                "a `return` in the handler would now skip the "
                    + (checks.isEmpty ? "code after the block that waits" : "statements after the wait")
                    + " for `\(name)`")
        }
        if members.filter({ $0 == "fulfill" }).count != paths.fulfills.count {
            return leave("`\(name)` is fulfilled outside the handler")
        }
        rewrite.expectation = ExpectationTest(
            function: function, declaration: declaration, fulfills: paths.fulfills, wait: wait, checks: checks,
            helper: helper, nested: nested, otherWaits: others)
        if let helper {
            let callers = helper.functions.map { "`\($0.name.text)`" }.joined(separator: ", ")
            let calls = helper.calls.count == 1 ? "its call awaits it" : "its \(helper.calls.count) calls await it"
            rewrite.notes.append(
                "`\(function.name.text)` waited for this call: it is now `async throws`, and \(calls) "
                    + "(in \(callers), made `async throws`)")
        }
        rewrite.context?.isAsync = true
        return .proceed(rewrite)
    }

    /// How many expectations `node` makes, however it makes them: a call of `expectation…(`,
    /// `keyValueObservingExpectation(`, `XCTestExpectation(` (unqualified or on `self`).
    static func expectationsMade(in node: some SyntaxProtocol) -> Int {
        node.tokens(viewMode: .sourceAccurate).filter { token in
            guard case .identifier(let text) = token.tokenKind,
                text.hasPrefix("expectation") || text == "keyValueObservingExpectation" || text == "XCTestExpectation",
                token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen
            else { return false }
            guard let previous = token.previousToken(viewMode: .sourceAccurate), previous.tokenKind == .period else {
                return true
            }
            return previous.previousToken(viewMode: .sourceAccurate)?.tokenKind == .keyword(.self)
        }.count
    }

    /// `let name = expectation(description: …)` (or `self.expectation`, `XCTestExpectation(description:)`,
    /// `XCTestExpectation()`).
    static func expectationName(_ item: CodeBlockItemSyntax) -> String? {
        guard let variable = item.item.as(VariableDeclSyntax.self), variable.bindings.count == 1,
            let binding = variable.bindings.first, binding.typeAnnotation == nil,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
            ["expectation", "self.expectation", "XCTestExpectation"].contains(call.calledExpression.trimmedDescription),
            call.arguments.map({ $0.label?.text }) == ["description"]
                || (call.calledExpression.trimmedDescription == "XCTestExpectation" && call.arguments.isEmpty
                    && call.trailingClosure == nil)
        else { return nil }
        return name
    }

    /// `wait(for: [a, b], timeout: t)`: the names waited for; nil names for
    /// `waitForExpectations(timeout:)` (every expectation); nil when not a wait.
    /// With `forwarding` (``forwardingWait(_:)``), `wait(for: [a])` too.
    static func waited(_ item: CodeBlockItemSyntax, forwarding: Bool = false) -> [String]?? {
        if let names = awaitedFulfillment(item) { return .some(names) }
        guard let call = item.item.as(FunctionCallExprSyntax.self) else { return nil }
        let callee = call.calledExpression.trimmedDescription
        let labels = call.arguments.map { $0.label?.text }
        if ["waitForExpectations", "self.waitForExpectations"].contains(callee), labels == ["timeout"] {
            return .some(nil)
        }
        guard ["wait", "self.wait"].contains(callee),
            labels == ["for", "timeout"] || (forwarding && labels == ["for"]),
            let array = call.arguments.first?.expression.as(ArrayExprSyntax.self)
        else { return nil }
        return .some(array.elements.map { $0.expression.trimmedDescription })
    }

    /// Whether a wait's handler (`waitForExpectations(timeout:) { error in … }`) only checks
    /// that the wait did not time out: `XCTAssertNil(error…)`, `if let error { XCTFail(…) }`,
    /// `print(…)`, or nothing. Awaited, there is no timeout to check; other code would be lost.
    static func onlyChecksTimeout(_ handler: ClosureExprSyntax) -> Bool {
        guard let names = CallRewrite.parameterNames(of: handler), names.count <= 1 else { return false }
        let error = names.first ?? "_"
        return handler.statements.allSatisfy { item in
            let call =
                item.item.as(FunctionCallExprSyntax.self)
                ?? item.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self)
            if let call, call.trailingClosure == nil {
                let callee = call.calledExpression.trimmedDescription
                if callee == "print" { return true }
                if callee == "XCTAssertNil" { return call.arguments.first?.expression.trimmedDescription == error }
            }
            guard let ifExpr = ErrorOnlyRule.ifExpr(item), ifExpr.elseBody == nil,
                CallRewrite.optionalBinding(ifExpr.conditions, of: error) != nil
            else { return false }
            return ifExpr.body.statements.allSatisfy { statement in
                let callee = statement.item.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription
                return callee == "XCTFail" || callee == "print"
            }
        }
    }

    /// `await fulfillment(of: [a, b], timeout: t)` (`self.`, with or without `enforceOrder:`):
    /// the names awaited; nil when not that wait.
    static func awaitedFulfillment(_ item: CodeBlockItemSyntax) -> [String]? {
        let expression = item.item.as(ExpressionStmtSyntax.self)?.expression ?? item.item.as(ExprSyntax.self)
        guard let call = expression?.as(AwaitExprSyntax.self)?.expression.as(FunctionCallExprSyntax.self),
            ["fulfillment", "self.fulfillment"].contains(call.calledExpression.trimmedDescription),
            call.arguments.first?.label?.text == "of",
            let array = call.arguments.first?.expression.as(ArrayExprSyntax.self)
        else { return nil }
        return array.elements.map { $0.expression.trimmedDescription }
    }

    /// Why the test may await the call and go on waiting for `name` (a note for the report):
    /// each `name.fulfill()` is in code the handler starts, and a `return` of the handler
    /// comes after `XCTFail` (the test failed there, by timing out; it now fails and ends).
    /// Nil when it may not: the call is then left alone with the paths' reason.
    private static func keptWaiting(
        _ rewrite: CallRewrite, function: FunctionDeclSyntax, name: String, handler: ClosureExprSyntax,
        in context: RuleContext
    ) -> String? {
        guard let body = function.body, !context.callSites.isCalled(function.name.text) else { return nil }
        let fulfills = body.tokens(viewMode: .sourceAccurate).filter { token in
            token.tokenKind == .identifier(name) && token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .period
                && token.nextToken(viewMode: .sourceAccurate)?.nextToken(viewMode: .sourceAccurate)?.text == "fulfill"
        }
        let inside = handler.position..<handler.endPosition
        guard !fulfills.isEmpty, fulfills.allSatisfy({ inside.contains($0.position) }) else { return nil }
        let returnsAfterAFailure = handler.statements.tokens(viewMode: .sourceAccurate).allSatisfy { token in
            guard token.tokenKind == .keyword(.return) else { return true }
            var node = token.parent
            while let current = node, !current.is(ClosureExprSyntax.self) { node = current.parent }
            guard node?.id == handler.id else { return true }
            guard let statement = token.parent?.parent?.as(CodeBlockItemSyntax.self),
                let list = statement.parent?.as(CodeBlockItemListSyntax.self)
            else { return false }
            return list.prefix { $0.id != statement.id }.contains {
                isAssertion($0) && $0.trimmedDescription.hasPrefix("XCTFail")
            }
        }
        guard returnsAfterAFailure else { return nil }
        return keptWaitingNote(name)
    }

    /// The note of a call awaited while the test goes on waiting for `name`; the run drops it
    /// once a later pass has awaited the calls that fulfil it (``stillWaits(_:in:)``).
    static func keptWaitingNote(_ name: String) -> String {
        "the test awaits this call and still awaits `\(name)` (`await fulfillment(of:)`), which the calls its "
            + "handler's code starts fulfil"
    }

    /// Whether `note` is ``keptWaitingNote(_:)``'s and `text` still awaits that expectation.
    static func stillWaits(_ note: String, in text: String) -> Bool {
        guard note.hasPrefix("the test awaits this call and still awaits `"),
            let name = note.split(separator: "`").dropFirst().first
        else { return true }
        return text.contains("await fulfillment(of: [\(name)]")
    }

    /// `XCTAssert…(…)` or `XCTFail(…)` as a statement: it only records whether the test
    /// passes, so it reads what the handler set and nothing runs that the handler could see.
    static func isAssertion(_ item: CodeBlockItemSyntax) -> Bool {
        guard let call = item.item.as(FunctionCallExprSyntax.self) else { return false }
        let callee = call.calledExpression.trimmedDescription
        return callee.hasPrefix("XCTAssert") || callee == "XCTFail"
    }

    /// The members used on `name` (`done.fulfill()` → `fulfill`).
    private static func members(of name: String, in body: CodeBlockSyntax) -> [String] {
        body.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard token.tokenKind == .identifier(name),
                token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .period,
                let member = token.nextToken(viewMode: .sourceAccurate)?.nextToken(viewMode: .sourceAccurate)
            else { return nil }
            return member.text
        }
    }

    /// A `return` of the handler itself (not of a closure in it), in `part` of it (the whole
    /// handler by default).
    static func returns(in handler: ClosureExprSyntax, within part: (any SyntaxProtocol)? = nil) -> Bool {
        handlerOwn([.return], in: handler, within: part)
    }

    /// Whether one of `keywords` belongs to the handler itself (not to a closure in it), in
    /// `part` of it (the whole handler by default).
    static func handlerOwn(
        _ keywords: Set<Keyword>, in handler: ClosureExprSyntax, within part: (any SyntaxProtocol)? = nil
    ) -> Bool {
        (part ?? handler.statements).tokens(viewMode: .sourceAccurate).contains { token in
            guard case .keyword(let keyword) = token.tokenKind, keywords.contains(keyword) else { return false }
            var node = token.parent
            while let current = node, !current.is(ClosureExprSyntax.self) { node = current.parent }
            return node?.id == handler.id
        }
    }
}
