import SwiftSyntax

/// `[weak self]` whose `self` the handler's code only unwraps: after the rewrite the
/// method's own `self` is used, which stays alive until the awaited call returns. The report
/// says so at the call's line. Three shapes: `guard let self else { return }` first (it goes);
/// `guard let strongSelf = self else { return }` first (it goes, and `strongSelf` is written
/// `self`); or `self` used only as `self?.…` statements (`self?.reload()`, `self?.items = v`),
/// written `self.…`. Any other capture list, or any other use of the weak `self`, leaves the
/// call alone.
struct WeakSelfRule: CallRule {
    static let summary =
        "`[weak self]` with `guard let self else { return }` or `guard let strongSelf = self else { return }` "
        + "first, or used only in `self?.…` statements, becomes the method's `self`, reported as an object kept "
        + "alive across the await; any other capture list or use of the weak `self` is left alone."

    static let keptAlive =
        "object kept alive across the await: `[weak self]` is gone, so `self` lives until the call returns "
        + "(before, a released object skipped the handler's code)"

    static let keptAliveChained =
        "object kept alive across the await: `[weak self]` is gone, so `self` lives until the call returns "
        + "(before, a released object skipped the handler's `self?.` statements)"

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard let capture = rewrite.handler?.signature?.capture else { return .proceed(rewrite) }
        guard capture.items.count == 1, let item = capture.items.first,
            item.specifier?.specifier.tokenKind == .keyword(.weak), item.name.text == "self", item.initializer == nil
        else {
            return .leave(.captureList, "`\(capture.trimmedDescription)` captures values at the call")
        }
        if let first = rewrite.body.first, Self.isGuardSelf(first) {
            rewrite.body.removeFirst()
            rewrite.notes.append(Self.keptAlive)
            return .proceed(rewrite)
        }
        let without = "`[weak self]` without `guard let self else { return }` first"
        // A fan-out's or a stream's code is written by other writers: only `guard let self`.
        guard rewrite.fanOut == nil, rewrite.entry?.kind != .stream else { return .leave(.captureList, without) }
        if let first = rewrite.body.first, let name = Self.guardedName(first) {
            let rest = Array(rewrite.body.dropFirst())
            let captured = rest.contains { item in
                item.tokens(viewMode: .sourceAccurate).contains {
                    $0.tokenKind == .identifier(name) && $0.parent?.is(ClosureCaptureSyntax.self) == true
                }
            }
            guard !captured else {
                return .leave(.captureList, "`\(name)` is captured by a closure of the handler")
            }
            guard !CallRewrite.uses("self", in: rest) else {
                return .leave(.captureList, "the weak `self` is used beside `\(name)`, which `guard let` bound")
            }
            guard !CallRewrite.declared(in: rest).contains(name), !Self.binds(name, in: rest) else {
                return .leave(.captureList, "`\(name)` is bound again in the handler")
            }
            rewrite.body = rest
            rewrite.replacements += rest.flatMap { $0.tokens(viewMode: .sourceAccurate) }
                .filter {
                    // A reference to the name, not a member or an argument label of the same name.
                    $0.tokenKind == .identifier(name) && $0.parent?.is(DeclReferenceExprSyntax.self) == true
                        && $0.previousToken(viewMode: .sourceAccurate)?.tokenKind != .period
                }
                .map { (Self.range(of: $0), "self") }
            rewrite.notes.append(Self.keptAlive)
            return .proceed(rewrite)
        }
        switch Self.chainedUses(in: rewrite.body) {
        case .failure(let refusal):
            return .leave(.captureList, without + ", and " + refusal.detail)
        case .success(let marks):
            guard !marks.isEmpty else { return .leave(.captureList, without + ", and `self` not used") }
            rewrite.replacements += marks.map { ($0, "") }
            rewrite.notes.append(Self.keptAliveChained)
            return .proceed(rewrite)
        }
    }

    /// Why the weak `self` is used in a way the method's `self` cannot take.
    struct Refusal: Error {
        var detail: String
        init(_ detail: String) { self.detail = detail }
    }

    /// The `?` of each `self?.…` in `items`, when every use of `self` is one, the whole of a
    /// statement or the target of an assignment, outside any closure of the handler; else why not.
    static func chainedUses(in items: [CodeBlockItemSyntax]) -> Result<[Range<Int>], Refusal> {
        var marks: [Range<Int>] = []
        for item in items {
            for token in item.tokens(viewMode: .sourceAccurate) where token.tokenKind == .keyword(.self) {
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                    let chained = reference.parent?.as(OptionalChainingExprSyntax.self)
                else {
                    return .failure(Refusal("`self` is used as an optional value"))
                }
                var node = Syntax(chained)
                while let parent = node.parent {
                    if parent.as(MemberAccessExprSyntax.self)?.base?.id == node.id
                        || parent.as(FunctionCallExprSyntax.self)?.calledExpression.id == node.id
                        || parent.as(SubscriptCallExprSyntax.self)?.calledExpression.id == node.id
                        || parent.is(OptionalChainingExprSyntax.self)
                    {
                        node = parent
                    } else {
                        break
                    }
                }
                guard isStatement(node) else {
                    let text = node.trimmedDescription.prefix { $0 != "\n" }
                    return .failure(Refusal("`\(text)` is a value, not a statement: its type would change"))
                }
                var up = token.parent
                while let current = up, current.id != item.id {
                    if current.is(ClosureExprSyntax.self) {
                        return .failure(Refusal("`self?.` is used in a closure of the handler"))
                    }
                    up = current.parent
                }
                marks.append(range(of: chained.questionMark))
            }
        }
        return .success(marks)
    }

    /// The chain is a statement of its own, or what an assignment (`=`, `+=`…) assigns to.
    private static func isStatement(_ chain: Syntax) -> Bool {
        if chain.parent?.is(CodeBlockItemSyntax.self) == true { return true }
        guard let list = chain.parent?.as(ExprListSyntax.self), list.first?.id == chain.id, list.count == 3,
            let sequence = list.parent?.as(SequenceExprSyntax.self),
            sequence.parent?.is(CodeBlockItemSyntax.self) == true
        else { return false }
        let operation = list[list.index(after: list.startIndex)]
        if operation.is(AssignmentExprSyntax.self) { return true }
        guard let binary = operation.as(BinaryOperatorExprSyntax.self) else { return false }
        return ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="].contains(binary.operator.text)
    }

    /// `guard let name = self else { return }`, with another name than `self`: the name.
    static func guardedName(_ item: CodeBlockItemSyntax) -> String? {
        guard let statement = item.item.as(GuardStmtSyntax.self),
            let name = CallRewrite.optionalBinding(statement.conditions, of: "self"), name != "self",
            statement.body.statements.count == 1, CallRewrite.endsWithReturn(Array(statement.body.statements))
        else { return nil }
        return name
    }

    /// Whether `name` is bound in `items` by a pattern (`if let name`, a closure's parameter, `case let`).
    private static func binds(_ name: String, in items: [CodeBlockItemSyntax]) -> Bool {
        items.contains { item in
            item.tokens(viewMode: .sourceAccurate).contains { token in
                token.tokenKind == .identifier(name)
                    && (token.parent?.is(IdentifierPatternSyntax.self) == true
                        || token.parent?.is(ClosureShorthandParameterSyntax.self) == true
                        || token.parent?.is(ClosureParameterSyntax.self) == true)
            }
        }
    }

    /// The token's bytes in the file, without its trivia.
    private static func range(of token: TokenSyntax) -> Range<Int> {
        token.positionAfterSkippingLeadingTrivia.utf8Offset..<token.endPositionBeforeTrailingTrivia.utf8Offset
    }

    /// `guard let self else { return }` or `guard let self = self else { return }`.
    static func isGuardSelf(_ item: CodeBlockItemSyntax) -> Bool {
        guard let statement = item.item.as(GuardStmtSyntax.self),
            CallRewrite.optionalBinding(statement.conditions, of: "self") == "self",
            statement.body.statements.count == 1
        else { return false }
        return CallRewrite.endsWithReturn(Array(statement.body.statements))
    }
}
