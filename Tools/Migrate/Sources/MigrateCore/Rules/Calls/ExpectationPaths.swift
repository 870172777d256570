import SwiftSyntax

/// The paths through a test's handler, for ``ExpectationTestRule``: where the expectation
/// is fulfilled, and whether every path ends the test as it will end once the call is
/// awaited and the handler's code runs in the test method itself.
///
/// The test's `wait` is its last statement, so the test ended when the handler fulfilled
/// the expectation. Awaited, it ends when the handler's code ends. The two agree when:
/// - each `fulfill()` ends the handler: the handler's last statement (or the last of a
///   branch that is), or followed by `return` alone (`XCTFail(…); done.fulfill(); return`);
///   the `fulfill()` goes and the `return` now ends the test, as the wait's return did;
/// - a path that ends without `fulfill()` records a failure first (`XCTFail(…)`): the
///   test failed by timing out, and fails awaited. Without a failure it would now pass.
///
/// The statements read are `if`/`else`, `guard`, `switch` (a `break` of its own case),
/// `#if` (each clause a branch: every build configuration is checked, the active one and
/// the others), `return`, `XCTFail(…)`; any other statement may contain none of the expectation's
/// `fulfill()`, a `return` of the handler, `break`, `continue` or `fallthrough`.
struct ExpectationPaths {
    let name: String
    let handler: ClosureExprSyntax
    /// Every `name.fulfill()` of the handler, once ``check()`` accepts it.
    private(set) var fulfills: [CodeBlockItemSyntax] = []

    init(name: String, handler: ClosureExprSyntax) {
        self.name = name
        self.handler = handler
    }

    /// Nil when every path ends the test as before; otherwise why not.
    mutating func check() -> String? {
        check(Array(handler.statements), failed: false, tail: true, inCase: false)
    }

    /// `items`, reached on a path that has recorded a failure or not (`failed`); `tail`: the
    /// handler ends when they do.
    private mutating func check(_ items: [CodeBlockItemSyntax], failed: Bool, tail: Bool, inCase: Bool) -> String? {
        var failed = failed
        for (offset, item) in items.enumerated() {
            let last = offset == items.count - 1
            if item.item.trimmedDescription == "\(name).fulfill()" {
                fulfills.append(item)
                let rest = items[(offset + 1)...]
                if rest.isEmpty, tail { return nil }
                if rest.count == 1, CallRewrite.endsWithReturn(Array(rest)) { return nil }
                return "code of the handler runs after `\(name).fulfill()`, after the wait returned"
            }
            if let call = item.item.as(FunctionCallExprSyntax.self),
                call.calledExpression.trimmedDescription == "XCTFail"
            {
                failed = true
                continue
            }
            if CallRewrite.endsWithReturn([item]) {
                if failed { return nil }
                return "a `return` in the handler skipped `\(name).fulfill()`: the test failed by timing out"
            }
            if inCase, let statement = item.item.as(BreakStmtSyntax.self), statement.label == nil {
                return end(failed: failed, tail: tail)
            }
            if let guardStmt = item.item.as(GuardStmtSyntax.self) {
                if let reason = check(Array(guardStmt.body.statements), failed: failed, tail: false, inCase: false) {
                    return reason
                }
                continue
            }
            if let ifExpr = Self.expression(item)?.as(IfExprSyntax.self) {
                var branch: IfExprSyntax? = ifExpr
                var exhaustive = false
                while let node = branch {
                    let bodies =
                        [node.body]
                        + (node.elseBody.flatMap { if case .codeBlock(let b) = $0 { [b] } else { nil } } ?? [])
                    for body in bodies {
                        if let reason = check(Array(body.statements), failed: failed, tail: tail && last, inCase: false)
                        {
                            return reason
                        }
                    }
                    if case .ifExpr(let next) = node.elseBody { branch = next } else { branch = nil }
                    if case .codeBlock = node.elseBody { exhaustive = true }
                }
                // Last, its branches ended the handler: only a missing `else` falls off the end.
                if last { return exhaustive ? nil : end(failed: failed, tail: tail) }
                continue
            }
            if let switchExpr = Self.expression(item)?.as(SwitchExprSyntax.self) {
                for element in switchExpr.cases {
                    guard let switchCase = element.as(SwitchCaseSyntax.self) else { return unread }
                    let statements = Array(switchCase.statements)
                    if let reason = check(statements, failed: failed, tail: tail && last, inCase: true) {
                        return reason
                    }
                }
                if last { return nil }  // its cases ended the handler
                continue
            }
            if let config = item.item.as(IfConfigDeclSyntax.self) {
                // Each build configuration compiles one clause, or none without `#else`: a
                // branch of its own, like an `if`. A `break` in it is not followed (`inCase`).
                for clause in config.clauses {
                    var statements: [CodeBlockItemSyntax] = []
                    if let elements = clause.elements {
                        guard case .statements(let list) = elements else { return unread }
                        statements = Array(list)
                    }
                    if let reason = check(statements, failed: failed, tail: tail && last, inCase: false) {
                        return reason
                    }
                }
                let exhaustive = config.clauses.contains { $0.poundKeyword.tokenKind == .poundElse }
                if last { return exhaustive ? nil : end(failed: failed, tail: tail) }
                continue
            }
            if reaches(item) { return unread }
        }
        return end(failed: failed, tail: tail)
    }

    /// The end of a block: the end of the handler (`tail`) without `fulfill()`, which only a
    /// recorded failure makes equivalent; otherwise what follows the block decides.
    private func end(failed: Bool, tail: Bool) -> String? {
        guard tail, !failed else { return nil }
        return "a path through the handler ends without `\(name).fulfill()` or `XCTFail`: the test timed out there"
    }

    private var unread: String {
        "`\(name).fulfill()`, a `return`, `break` or `continue` in a statement this tool does not follow"
    }

    /// Whether `item` holds the expectation's `fulfill`, a `return` of the handler, or a
    /// `break`, `continue` or `fallthrough`.
    private func reaches(_ item: CodeBlockItemSyntax) -> Bool {
        item.tokens(viewMode: .sourceAccurate).contains { token in
            switch token.tokenKind {
            case .keyword(.break), .keyword(.continue), .keyword(.fallthrough):
                return true
            case .keyword(.return):
                var node = token.parent
                while let current = node, !current.is(ClosureExprSyntax.self) { node = current.parent }
                return node?.id == handler.id
            case .identifier(name):
                return token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .period
                    && token.nextToken(viewMode: .sourceAccurate)?.nextToken(viewMode: .sourceAccurate)?.text
                        == "fulfill"
            default:
                return false
            }
        }
    }

    private static func expression(_ item: CodeBlockItemSyntax) -> ExprSyntax? {
        item.item.as(ExpressionStmtSyntax.self)?.expression ?? item.item.as(ExprSyntax.self)
    }
}
