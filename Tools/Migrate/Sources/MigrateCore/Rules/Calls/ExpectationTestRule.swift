import SwiftSyntax

/// A test method that waits for a call's handler with an XCTest expectation: `let done =
/// expectation(description:)`, the call with a handler whose last statement is
/// `done.fulfill()`, then `wait(for: [done], timeout:)` or `waitForExpectations(timeout:)`
/// as the method's last statement. The method becomes `async throws`, awaits the call with
/// the handler's code (its assertions) in the same order, and the expectation's lines go.
struct ExpectationTestRule: CallRule {
    static let summary =
        "A synchronous test method that creates an expectation, fulfils it as the handler's last statement and waits "
        + "for it as its own last statement becomes `async throws` and awaits the call; an inverted expectation, an "
        + "expected fulfilment count, an expectation fulfilled in several places or a wait for several leave it alone."

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
        if members.filter({ $0 == "fulfill" }).count != 1 {
            return leave("`\(name)` is fulfilled in more than one place")
        }
        guard position + 2 == items.count, let wait = items.last, let waited = Self.waited(wait) else {
            return leave("the test does not end by waiting for `\(name)` right after the call")
        }
        if let waited, waited != [name] {
            return leave("the wait is for several expectations (`\(waited.joined(separator: "`, `"))`)")
        }
        guard
            let handler = rewrite.call.trailingClosure
                ?? rewrite.call.arguments.last?.expression.as(ClosureExprSyntax.self),
            let fulfill = handler.statements.last, fulfill.item.trimmedDescription == "\(name).fulfill()"
        else { return leave("`\(name).fulfill()` is not the handler's last statement") }
        if Self.returns(in: handler) {
            return leave("a `return` in the handler skipped `\(name).fulfill()`: the test failed by timing out")
        }
        rewrite.expectation = ExpectationTest(
            function: function, declaration: declaration, fulfill: fulfill, wait: wait)
        rewrite.context?.isAsync = true
        return .proceed(rewrite)
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

    static let examples: [CallExample] = [
        CallExample(
            "a test that waits for the handler becomes async throws",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let user):
                            trace.log("loaded \\(user)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    do {
                        let user = try await api.load(id: 1)
                        trace.log("loaded \\(user)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "an inverted expectation checks that the handler is not called: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    done.isInverted = true
                    api.load(id: 1) { result in
                        trace.log("called")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "inverted")),
        CallExample(
            "an expected fulfilment count counts the handler's calls: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    done.expectedFulfillmentCount = 2
                    api.load(id: 1) { result in
                        trace.log("called")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "several fulfilments")),
        CallExample(
            "an expectation fulfilled in more than one place: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        if case .failure = result {
                            done.fulfill()
                            return
                        }
                        trace.log("loaded")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "more than one place")),
        CallExample(
            "a wait for several expectations: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    let other = expectation(description: "other")
                    other.fulfill()
                    api.load(id: 1) { result in
                        trace.log("called")
                        done.fulfill()
                    }
                    wait(for: [done, other], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "several expectations")),
    ]
}

/// An XCTest method waiting for a call's handler: the lines that go once the call is awaited.
struct ExpectationTest {
    var function: FunctionDeclSyntax
    /// `let done = expectation(description: …)`.
    var declaration: CodeBlockItemSyntax
    /// `done.fulfill()`, the handler's last statement.
    var fulfill: CodeBlockItemSyntax
    /// `wait(for: [done], timeout: …)`, the method's last statement.
    var wait: CodeBlockItemSyntax
}
