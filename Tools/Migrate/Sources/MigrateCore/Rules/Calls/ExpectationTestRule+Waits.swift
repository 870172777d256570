import SwiftSyntax

/// Where ``ExpectationTestRule`` finds a test's waits: the suite's own `wait(for:)`, the
/// method's other waits, the blocks a wait may sit in, and what a handler may not do there.
extension ExpectationTestRule {
    /// Whether the module's tests declare `wait(for:)` as XCTest's wait with a timeout of
    /// their own: `func wait(for expectations: [XCTestExpectation]) { wait(for:
    /// expectations, timeout: t) }` (a test case's extension), nothing more.
    static func forwardingWait(_ calls: CallSites) -> Bool {
        calls.calls(named: "wait").contains { call in
            guard call.labels == ["for", "timeout"], call.node.trailingClosure == nil,
                let item = call.node.parent?.as(CodeBlockItemSyntax.self),
                let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
                let function = list.parent?.as(CodeBlockSyntax.self)?.parent?.as(FunctionDeclSyntax.self),
                function.name.text == "wait", function.signature.effectSpecifiers == nil,
                function.signature.returnClause == nil, function.genericParameterClause == nil,
                function.signature.parameterClause.parameters.count == 1,
                let parameter = function.signature.parameterClause.parameters.first,
                parameter.firstName.text == "for", parameter.defaultValue == nil,
                parameter.type.trimmedDescription == "[XCTestExpectation]",
                ["wait", "self.wait"].contains(call.node.calledExpression.trimmedDescription),
                call.node.arguments.first?.expression.trimmedDescription
                    == (parameter.secondName ?? parameter.firstName).text
            else { return false }
            return true
        }
    }

    /// The method's blocking waits but `wait` (`wait(for:…)`, a `wait(for:)` of the suite's
    /// or not, `waitForExpectations`), not in a closure.
    static func otherWaits(in body: CodeBlockSyntax, besides wait: CodeBlockItemSyntax) -> [CodeBlockItemSyntax] {
        var seen = Set<SyntaxIdentifier>()
        return body.statements.flatMap { item in
            Array(item.tokens(viewMode: .sourceAccurate)).compactMap { token -> CodeBlockItemSyntax? in
                guard token.tokenKind == .identifier("wait") || token.tokenKind == .identifier("waitForExpectations")
                else { return nil }
                var node = token.parent
                while let current = node, !current.is(CodeBlockItemSyntax.self), !current.is(ClosureExprSyntax.self) {
                    node = current.parent
                }
                guard let candidate = node?.as(CodeBlockItemSyntax.self), candidate.id != wait.id,
                    (waited(candidate, forwarding: true) ?? nil) != nil || Self.waitsForAll(candidate),
                    awaitedFulfillment(candidate) == nil, seen.insert(candidate.id).inserted
                else { return nil }
                return candidate
            }
        }
    }

    /// `waitForExpectations(timeout:)` as a statement.
    private static func waitsForAll(_ item: CodeBlockItemSyntax) -> Bool {
        guard let call = item.item.as(FunctionCallExprSyntax.self) else { return false }
        return ["waitForExpectations", "self.waitForExpectations"].contains(call.calledExpression.trimmedDescription)
    }

    /// `await fulfillment(of: [a], timeout: t)` for `wait(for: [a], timeout: t)`; nil for a
    /// wait without its timeout, or for every expectation.
    static func awaitableWait(_ item: CodeBlockItemSyntax) -> String? {
        guard let call = item.item.as(FunctionCallExprSyntax.self),
            ["wait", "self.wait"].contains(call.calledExpression.trimmedDescription),
            call.arguments.map({ $0.label?.text }) == ["for", "timeout"], call.trailingClosure == nil,
            let names = call.arguments.first?.expression.as(ArrayExprSyntax.self),
            let timeout = call.arguments.last
        else { return nil }
        return "await fulfillment(of: \(names.trimmedDescription), timeout: \(timeout.expression.trimmedDescription))"
    }

    /// A `break` or `continue` of the handler itself (not of a closure in it).
    static func jumps(in handler: ClosureExprSyntax) -> Bool {
        handlerOwn([.break, .continue], in: handler)
    }

    /// Whether `list` is `body`'s statements, or a block of a loop, an `if` or a `do` in it
    /// (not in a closure, a `guard`'s `else`, a `defer` or a `switch`).
    static func isStatementBlock(_ list: CodeBlockItemListSyntax, of body: CodeBlockSyntax) -> Bool {
        var node = Syntax(list)
        while node.id != body.statements.id {
            guard let parent = node.parent else { return false }
            if node.is(CodeBlockSyntax.self) {
                guard
                    parent.is(ForStmtSyntax.self) || parent.is(WhileStmtSyntax.self)
                        || parent.is(RepeatStmtSyntax.self) || parent.is(IfExprSyntax.self)
                        || parent.is(DoStmtSyntax.self)
                else { return false }
            } else if !(node.is(CodeBlockItemListSyntax.self) || node.is(CodeBlockItemSyntax.self)
                || node.is(ForStmtSyntax.self) || node.is(WhileStmtSyntax.self) || node.is(RepeatStmtSyntax.self)
                || node.is(IfExprSyntax.self) || node.is(DoStmtSyntax.self) || node.is(ExpressionStmtSyntax.self))
            {
                return false
            }
            node = parent
        }
        return true
    }

    /// Whether `item` names `name` (not as a member: `x.name`).
    static func mentions(_ name: String, in item: CodeBlockItemSyntax) -> Bool {
        item.tokens(viewMode: .sourceAccurate).contains {
            $0.tokenKind == .identifier(name) && $0.previousToken(viewMode: .sourceAccurate)?.tokenKind != .period
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
    var helper: WaitingHelper? = nil
    /// The handler's code starts the calls that fulfil the expectation: it stays, and the
    /// wait becomes (or stays) `await fulfillment(of: [name], timeout: …)`.
    var keepsWaiting = false
    /// The wait is in a block of a loop, an `if` or a `do` of the method.
    var nested = false
    /// The method's other blocking waits, which become `await fulfillment(of:timeout:)`.
    var otherWaits: [CodeBlockItemSyntax] = []

    /// Whether `item` goes with the call (the wait) or ran after the handler (the checks).
    func follows(_ item: CodeBlockItemSyntax) -> Bool {
        item.id == wait.id || checks.contains { $0.id == item.id }
    }
}
