import SwiftSyntax

/// A test method that waits for a call's handler with an XCTest expectation: `let done =
/// expectation(description:)`, the call with a handler that fulfils it, then `wait(for:
/// [done], timeout:)` or `waitForExpectations(timeout:)` right after it, followed by nothing
/// or by assertions only (`XCTAssert…`, `XCTFail`: they ran after the handler, and read what
/// it set). The method becomes `async throws`, awaits the call with the handler's code (its
/// assertions) in the same order, then the assertions after the wait; the expectation's
/// lines go. ``ExpectationPaths`` checks that every path through the handler ends the test
/// as before; with assertions after the wait, the handler may not `return` (that `return`
/// would now skip them). A helper that waits, called by tests, is converted with its callers
/// (``WaitingHelper``) or left alone.
struct ExpectationTestRule: CallRule {
    static let summary =
        "A synchronous test method that creates an expectation, fulfils it where the handler ends and waits for it "
        + "right after the call, followed only by assertions, becomes `async throws` and awaits the call; an "
        + "inverted expectation, an "
        + "expected fulfilment count, a path that neither fulfils nor fails (each `#if` clause is a path), a wait "
        + "for several or an `override` leave it alone. A helper that waits (ending with `return value` after the "
        + "wait) becomes `async throws` together with every call of it, each in a test method of its file that "
        + "becomes `async throws` (in an assertion, hoisted before it when the order is kept), or none."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard let function = rewrite.context?.body.as(FunctionDeclSyntax.self), !(rewrite.context?.isAsync ?? true),
            let body = function.body, let item = rewrite.call.parent?.as(CodeBlockItemSyntax.self),
            item.parent?.id == body.statements.id
        else { return .proceed(rewrite) }
        let items = Array(body.statements)
        guard let position = items.firstIndex(where: { $0.id == item.id }),
            let declaration = items[..<position].last(where: { Self.expectationName($0) != nil }),
            let name = Self.expectationName(declaration)
        else { return .proceed(rewrite) }
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
        guard position + 1 < items.count, let waited = Self.waited(items[position + 1]) else {
            // The first of several calls waited for together: they were in flight at once.
            let later = items[(position + 1)...].lazy.compactMap { Self.waited($0) ?? nil }
            if let names = later.first(where: { $0.contains(name) && $0.count > 1 }) { return several(names) }
            return leave("the test does not wait for `\(name)` right after the call")
        }
        let wait = items[position + 1]
        if let waited, waited != [name] { return several(waited) }
        // `waitForExpectations` waits for every expectation the method made.
        let made = items.compactMap { Self.expectationName($0) }
        if waited == nil, made.count > 1 { return several(made) }
        if waited == nil, let body = function.body, Self.expectationsMade(in: body) > 1 {
            return leave(
                "`waitForExpectations` waits for every expectation the method makes, and it makes more than "
                    + "`\(name)` (`expectation(for:…)`, `keyValueObservingExpectation`, …)")
        }
        let checks = Array(items[(position + 2)...])
        // A helper's `return value` last: it ran after the handler, as the assertions.
        let returned = checks.last.map { $0.item.as(ReturnStmtSyntax.self)?.expression != nil } ?? false
        if let other = checks.dropLast(returned ? 1 : 0).first(where: { !Self.isAssertion($0) }) {
            let line = other.trimmedDescription.prefix { $0 != "\n" }
            return leave("after the wait for `\(name)`, `\(line)` is not an assertion (`XCTAssert…`, `XCTFail`)")
        }
        if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) }) {
            return leave(
                "`\(function.name.text)` overrides a method XCTest calls: its signature cannot become `async throws`")
        }
        var helper: WaitingHelper?
        if context.callSites.isCalled(function.name.text) {
            switch WaitingHelper.callers(of: function, file: rewrite.file, in: context) {
            case .success(let callers): helper = callers
            case .failure(let reason):
                return leave("`\(function.name.text)` waits and is called by tests: \(reason.detail)")
            }
        }
        guard
            let handler = rewrite.call.trailingClosure
                ?? rewrite.call.arguments.last?.expression.as(ClosureExprSyntax.self)
        else { return leave("the handler is not written at the call") }
        var paths = ExpectationPaths(name: name, handler: handler)
        if let reason = paths.check() { return leave(reason) }
        if !checks.isEmpty, Self.returns(in: handler) {
            return leave("a `return` in the handler would now skip the statements after the wait for `\(name)`")
        }
        if members.filter({ $0 == "fulfill" }).count != paths.fulfills.count {
            return leave("`\(name)` is fulfilled outside the handler")
        }
        rewrite.expectation = ExpectationTest(
            function: function, declaration: declaration, fulfills: paths.fulfills, wait: wait, checks: checks,
            helper: helper)
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

    /// `let name = expectation(description: …)` (or `self.expectation`, `XCTestExpectation(description:)`).
    static func expectationName(_ item: CodeBlockItemSyntax) -> String? {
        guard let variable = item.item.as(VariableDeclSyntax.self), variable.bindings.count == 1,
            let binding = variable.bindings.first, binding.typeAnnotation == nil,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
            ["expectation", "self.expectation", "XCTestExpectation"].contains(call.calledExpression.trimmedDescription),
            call.arguments.map({ $0.label?.text }) == ["description"]
        else { return nil }
        return name
    }

    /// `wait(for: [a, b], timeout: t)`: the names waited for; nil names for
    /// `waitForExpectations(timeout:)` (every expectation); nil when not a wait.
    static func waited(_ item: CodeBlockItemSyntax) -> [String]?? {
        guard let call = item.item.as(FunctionCallExprSyntax.self) else { return nil }
        let callee = call.calledExpression.trimmedDescription
        let labels = call.arguments.map { $0.label?.text }
        if ["waitForExpectations", "self.waitForExpectations"].contains(callee), labels == ["timeout"] {
            return .some(nil)
        }
        guard ["wait", "self.wait"].contains(callee), labels == ["for", "timeout"],
            let array = call.arguments.first?.expression.as(ArrayExprSyntax.self)
        else { return nil }
        return .some(array.elements.map { $0.expression.trimmedDescription })
    }

    /// `XCTAssert…(…)` or `XCTFail(…)` as a statement: it only records whether the test
    /// passes, so it reads what the handler set and nothing runs that the handler could see.
    private static func isAssertion(_ item: CodeBlockItemSyntax) -> Bool {
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

    /// A `return` of the handler itself (not of a closure in it).
    static func returns(in handler: ClosureExprSyntax) -> Bool {
        handler.statements.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.tokenKind == .keyword(.return) else { return false }
            var node = token.parent
            while let current = node, !current.is(ClosureExprSyntax.self) { node = current.parent }
            return node?.id == handler.id
        }
    }
}

/// An XCTest method waiting for a call's handler: the lines that go once the call is awaited.
struct ExpectationTest {
    var function: FunctionDeclSyntax
    /// `let done = expectation(description: …)`.
    var declaration: CodeBlockItemSyntax
    /// Every `done.fulfill()` of the handler (its last statement, or followed by `return`).
    var fulfills: [CodeBlockItemSyntax]
    /// `wait(for: [done], timeout: …)`, right after the call.
    var wait: CodeBlockItemSyntax
    /// The assertions after the wait (the method's last statements), which ran after the
    /// handler and run after the awaited call's code.
    var checks: [CodeBlockItemSyntax] = []
    /// For a helper that tests call, those calls, which await it.
    var helper: WaitingHelper?

    /// Whether `item` goes with the call (the wait) or ran after the handler (the checks).
    func follows(_ item: CodeBlockItemSyntax) -> Bool {
        item.id == wait.id || checks.contains { $0.id == item.id }
    }
}
