import SwiftSyntax

/// A test method that waits for a call's handler with an XCTest expectation: `let done =
/// expectation(description:)`, the call with a handler that fulfils it, then `wait(for:
/// [done], timeout:)` or `waitForExpectations(timeout:)` as the method's last statement. The
/// method becomes `async throws`, awaits the call with the handler's code (its assertions)
/// in the same order, and the expectation's lines go. ``ExpectationPaths`` checks that every
/// path through the handler ends the test as before.
struct ExpectationTestRule: CallRule {
    static let summary =
        "A synchronous test method that creates an expectation, fulfils it where the handler ends and waits for it "
        + "as its own last statement becomes `async throws` and awaits the call; an inverted expectation, an "
        + "expected fulfilment count, a path that neither fulfils nor fails, a wait for several or a helper that "
        + "other code calls leave it alone."

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
        guard position + 2 == items.count, let wait = items.last, let waited = Self.waited(wait) else {
            return leave("the test does not end by waiting for `\(name)` right after the call")
        }
        if let waited, waited != [name] {
            return leave("the wait is for several expectations (`\(waited.joined(separator: "`, `"))`)")
        }
        if context.callSites.isCalled(function.name.text) {
            return leave(
                "`\(function.name.text)` is called by other code, not only by XCTest: made async, its callers would have to await it"
            )
        }
        guard
            let handler = rewrite.call.trailingClosure
                ?? rewrite.call.arguments.last?.expression.as(ClosureExprSyntax.self)
        else { return leave("the handler is not written at the call") }
        var paths = ExpectationPaths(name: name, handler: handler)
        if let reason = paths.check() { return leave(reason) }
        if members.filter({ $0 == "fulfill" }).count != paths.fulfills.count {
            return leave("`\(name)` is fulfilled outside the handler")
        }
        rewrite.expectation = ExpectationTest(
            function: function, declaration: declaration, fulfills: paths.fulfills, wait: wait)
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
            "`XCTFail; fulfill(); return`: the `return` ends the test, as the wait did",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 3) { result in
                        switch result {
                        case .success(let text):
                            guard text == "v" else {
                                XCTFail("unexpected \\(text)")
                                done.fulfill()
                                return
                            }
                            trace.log("loaded \\(text)")
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
                        let text = try await api.load(id: 3)
                        guard text == "v" else {
                            XCTFail("unexpected \\(text)")
                            return
                        }
                        trace.log("loaded \\(text)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "`fulfill()` on success, `XCTFail` otherwise: that path fails, before and after",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 4) { result in
                        switch result {
                        case .success(let text):
                            trace.log("loaded \\(text)")
                            done.fulfill()
                        default:
                            trace.log("failed")
                            XCTFail()
                        }
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async throws {
                    do {
                        let text = try await api.load(id: 4)
                        trace.log("loaded \\(text)")
                    } catch {
                        trace.log("failed")
                        XCTFail()
                    }
                }
                """)),
        CallExample(
            "an expectation fulfilled where this tool does not follow: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        trace.log("called")
                        DispatchQueue.main.async { done.fulfill() }
                    }
                    wait(for: [done], timeout: 1)
                }
                """,
            after: .leftAlone(.expectation, "does not follow")),
        CallExample(
            "a helper that waits, called by a test: left alone (its callers would have to await it)",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    let done = expectation(description: "load")
                    api.load(id: 1) { result in
                        trace.log("called")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 1)
                }

                func testRun() {
                    run(api: FakeAPI(outcome: .value, trace: Trace()), trace: Trace())
                }
                """,
            after: .leftAlone(.expectation, "is called by other code")),
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
    /// Every `done.fulfill()` of the handler (its last statement, or followed by `return`).
    var fulfills: [CodeBlockItemSyntax]
    /// `wait(for: [done], timeout: …)`, the method's last statement.
    var wait: CodeBlockItemSyntax
}
