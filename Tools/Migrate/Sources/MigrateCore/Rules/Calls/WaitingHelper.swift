import SwiftSyntax

/// A helper that waits for a call's handler (``ExpectationTestRule``) and the test methods
/// that call it, converted together or not at all: the helper becomes `async throws`, each
/// call `try await helper(…)`, each calling method `async throws`. Every call must be in
/// the helper's file, by name (or `self.`), in a synchronous method that only XCTest calls
/// (not an `override`), and not in a closure or `defer` (where `await` cannot go):
/// as a statement, `let x = helper(…)` / `x = helper(…)`, or an argument of an
/// `XCTAssert…(…)` statement. That argument is an autoclosure: the call is hoisted into
/// `let helperResult = try await helper(…)` before the assertion when evaluation order is
/// kept (the arguments before it are literals, those after it literals or names).
struct WaitingHelper {
    /// A call of the helper and how it becomes an await.
    struct Call {
        var node: FunctionCallExprSyntax
        /// The method it is in, made `async throws`.
        var function: FunctionDeclSyntax
        /// For a call inside an assertion: the statement, and the name of the hoisted value.
        var hoisted: (statement: CodeBlockItemSyntax, name: String)?
    }

    var calls: [Call] = []

    /// The callers of `helper` when every call can await it; else why not.
    static func callers(of helper: FunctionDeclSyntax, file: String, in context: RuleContext) -> Result<Self, Leave> {
        let name = helper.name.text
        let found = context.callSites.calls(named: name).filter { matches($0.labels, helper) }
        guard !found.isEmpty else {
            return .failure(
                Leave(
                    "`\(name)` is called by other code, not only by XCTest: made async, its callers would have to await it"
                ))
        }
        var result = WaitingHelper()
        var hoistedNames: [SyntaxIdentifier: Set<String>] = [:]
        for call in found {
            let at = "`\(name)(…)` at \(call.file):\(call.line)"
            guard call.file == file else {
                return .failure(Leave("\(at) is in another file: the helper and its callers are converted together"))
            }
            if let member = call.node.calledExpression.as(MemberAccessExprSyntax.self),
                member.base?.trimmedDescription != "self"
            {
                return .failure(Leave("\(at) is called on another value"))
            }
            guard let function = enclosingFunction(of: call.node) else {
                return .failure(Leave("\(at) is in a closure, a `defer` or outside a method: `await` cannot go there"))
            }
            let caller = function.name.text
            guard typeName(around: function) == typeName(around: helper) else {
                return .failure(Leave("\(at) is in `\(caller)` of another type: it may call another `\(name)`"))
            }
            if function.id == helper.id { return .failure(Leave("\(at) calls itself")) }
            if function.signature.effectSpecifiers?.asyncSpecifier != nil {
                return .failure(Leave("\(at) is in `\(caller)`, already async"))
            }
            if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) }) {
                return .failure(
                    Leave("\(at) is in `\(caller)`, an override: its signature cannot become `async throws`"))
            }
            if context.callSites.isCalled(caller) {
                return .failure(Leave("\(at) is in `\(caller)`, which other code calls: it would have to await it too"))
            }
            if waits(function) {
                return .failure(
                    Leave("\(at) is in `\(caller)`, which waits for an expectation itself: async, it could not"))
            }
            var converted = Call(node: call.node, function: function)
            if !isStatement(call.node) {
                guard let statement = assertion(around: call.node) else {
                    let text = call.node.parent?.trimmedDescription.prefix { $0 != "\n" } ?? ""
                    return .failure(Leave("\(at) is part of an expression (`\(text)`) where `await` cannot go"))
                }
                guard keepsOrder(call.node) else {
                    return .failure(
                        Leave(
                            "\(at) is an assertion's argument beside others that may change what it does: "
                                + "hoisted, it would run in another order"))
                }
                var used = hoistedNames[function.id] ?? Set(identifiers(in: function))
                var hoisted = "\(name)Result"
                var number = 2
                while used.contains(hoisted) {
                    hoisted = "\(name)Result\(number)"
                    number += 1
                }
                used.insert(hoisted)
                hoistedNames[function.id] = used
                converted.hoisted = (statement, hoisted)
            }
            result.calls.append(converted)
        }
        return .success(result)
    }

    struct Leave: Error {
        var detail: String
        init(_ detail: String) { self.detail = detail }
    }

    /// The methods made `async throws`, once each.
    var functions: [FunctionDeclSyntax] {
        var seen = Set<SyntaxIdentifier>()
        return calls.map(\.function).filter { seen.insert($0.id).inserted }
    }

    /// Whether a call's labels fill the helper's parameters (those with a default may be left out).
    static func matches(_ labels: [String?], _ helper: FunctionDeclSyntax) -> Bool {
        var remaining = labels[...]
        for parameter in helper.signature.parameterClause.parameters {
            let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
            if let next = remaining.first, next == label {
                remaining = remaining.dropFirst()
            } else if parameter.defaultValue == nil {
                return false
            }
        }
        return remaining.isEmpty
    }

    /// The method a call is in, when nothing between them is a closure or a `defer`.
    private static func enclosingFunction(of node: some SyntaxProtocol) -> FunctionDeclSyntax? {
        var current = node.parent
        while let syntax = current {
            if let function = syntax.as(FunctionDeclSyntax.self) { return function }
            if syntax.is(ClosureExprSyntax.self) || syntax.is(DeferStmtSyntax.self)
                || syntax.isProtocol(DeclGroupSyntax.self)
                || syntax.is(AccessorDeclSyntax.self) || syntax.is(InitializerDeclSyntax.self)
            {
                return nil
            }
            current = syntax.parent
        }
        return nil
    }

    /// `helper(…)`, `let x = helper(…)`, `x = helper(…)`, `_ = helper(…)`: `try await` goes before the call.
    private static func isStatement(_ call: FunctionCallExprSyntax) -> Bool {
        guard let parent = call.parent else { return false }
        if parent.is(CodeBlockItemSyntax.self) { return true }
        if let clause = parent.as(InitializerClauseSyntax.self) {
            return clause.parent?.parent?.parent?.is(VariableDeclSyntax.self) ?? false
        }
        if let list = parent.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self) {
            let elements = Array(list)
            return elements.count == 3 && elements[1].is(AssignmentExprSyntax.self) && elements[2].id == call.id
                && sequence.parent?.is(CodeBlockItemSyntax.self) == true
        }
        return false
    }

    /// The `XCTAssert…(…, helper(…), …)` statement the call is an argument of.
    private static func assertion(around call: FunctionCallExprSyntax) -> CodeBlockItemSyntax? {
        guard let assertion = call.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
            call.parent?.is(LabeledExprSyntax.self) == true,
            assertion.calledExpression.trimmedDescription.hasPrefix("XCTAssert"),
            let item = assertion.parent?.as(CodeBlockItemSyntax.self)
        else { return nil }
        return item
    }

    /// The arguments evaluated before the call are literals (hoisted, they run after it),
    /// those after it literals or names (they ran after it before too).
    private static func keepsOrder(_ call: FunctionCallExprSyntax) -> Bool {
        guard let argument = call.parent?.as(LabeledExprSyntax.self),
            let list = argument.parent?.as(LabeledExprListSyntax.self)
        else { return false }
        var before = true
        for other in list {
            if other.id == argument.id {
                before = false
                continue
            }
            guard isLiteral(other.expression) || (!before && isName(other.expression)) else { return false }
        }
        return true
    }

    private static func isLiteral(_ expression: ExprSyntax) -> Bool {
        if let string = expression.as(StringLiteralExprSyntax.self) {
            return string.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
        }
        return expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
            || expression.is(BooleanLiteralExprSyntax.self) || expression.is(NilLiteralExprSyntax.self)
            || expression.is(MacroExpansionExprSyntax.self)
    }

    /// A name (`file`, `expected`), an enum case (`.empty`) or a string whose interpolations are names.
    private static func isName(_ expression: ExprSyntax) -> Bool {
        if let string = expression.as(StringLiteralExprSyntax.self) {
            return string.segments.allSatisfy { segment in
                guard let interpolation = segment.as(ExpressionSegmentSyntax.self) else { return true }
                return interpolation.expressions.count == 1
                    && interpolation.expressions.allSatisfy { isName($0.expression) }
            }
        }
        if let member = expression.as(MemberAccessExprSyntax.self) { return member.base == nil }
        return expression.is(DeclReferenceExprSyntax.self)
    }

    /// Whether `function` calls `wait(for:timeout:)` or `waitForExpectations(timeout:)`,
    /// which an async method may not.
    static func waits(_ function: FunctionDeclSyntax) -> Bool {
        function.tokens(viewMode: .sourceAccurate).contains {
            ["wait", "waitForExpectations"].contains($0.text)
                && $0.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen
        }
    }

    /// The type a method is declared in (an extension's extended type); nil at file scope.
    private static func typeName(around function: FunctionDeclSyntax) -> String? {
        var current = function.parent
        while let syntax = current {
            if let type = syntax.asProtocol(NamedDeclSyntax.self), syntax.isProtocol(DeclGroupSyntax.self) {
                return type.name.text
            }
            if let extended = syntax.as(ExtensionDeclSyntax.self) { return extended.extendedType.trimmedDescription }
            current = syntax.parent
        }
        return nil
    }

    private static func identifiers(in function: FunctionDeclSyntax) -> [String] {
        function.tokens(viewMode: .sourceAccurate).compactMap {
            if case .identifier(let text) = $0.tokenKind { text } else { nil }
        }
    }
}
