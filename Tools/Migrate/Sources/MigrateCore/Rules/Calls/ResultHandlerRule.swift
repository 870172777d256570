import SwiftSyntax

/// A `Result` handler: `switch result { case .success(let v): … case .failure(let e): … }`,
/// `if case .success(let v) = result { … } else { … }`, or `do { let v = try result.get() … } catch { … }`.
struct ResultHandlerRule: CallRule {
    static let summary =
        "A `Result` handler that switches over the result, tests `if case .success`, or calls `try result.get()` "
        + "becomes `let v = try await …` with the success code after it and the failure code in the `catch`; code "
        + "after the `switch` (no `return` in it skipped that code) follows the `do`/`catch`. A handler that uses "
        + "its result whole (stores it, passes it on) gets it back from a `do`/`catch` around the await (a failure "
        + "of `any Error` only, and a result type the call site can write), in a `do { }` of their own where a name "
        + "they declare is declared beside the call too."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard rewrite.branches == nil, let entry = rewrite.entry, case .result(let success, let failure) = entry.shape,
            let names = rewrite.parameterNames, names.count == 1, let only = rewrite.body.first
        else { return .proceed(rewrite) }
        // Code after the `switch` ran on both paths; it follows the `do`/`catch`, which only a
        // `return` in a branch (that skipped it) or a hop to the main queue would change.
        let tail = Array(rewrite.body.dropFirst())
        if !tail.isEmpty,
            rewrite.hopsToMain || rewrite.handler.map({ ExpectationTestRule.returns(in: $0, within: only) }) ?? true
        {
            return .proceed(rewrite)
        }
        let result = names[0]
        let branches: HandlerBranches?
        if let switchExpr = only.item.as(ExpressionStmtSyntax.self)?.expression.as(SwitchExprSyntax.self)
            ?? only.item.as(SwitchExprSyntax.self)
        {
            branches = Self.switchBranches(switchExpr, over: result)
        } else if let ifExpr = only.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self)
            ?? only.item.as(IfExprSyntax.self)
        {
            branches = Self.ifCaseBranches(ifExpr, over: result)
        } else if let doStmt = only.item.as(DoStmtSyntax.self) {
            branches = Self.getBranches(doStmt, over: result)
        } else {
            branches = nil
        }
        guard var branches else {
            return Self.wholeResult(rewrite, success: success, failure: failure, name: result, context: context)
        }
        branches.tail = tail
        let name = branches.errorName ?? "error"
        if !TypeText.isError(failure), CallRewrite.uses(name, in: branches.failure) {
            // A test method made `async throws` catches the handler's own error type: the
            // errors only the async form throws (`CancellationError`, `AbandonedPromiseError`)
            // fail the test, where the test timed out before.
            let type = failure.trimmedDescription
            // Not where code follows that a thrown error would skip (or the test's own `do`).
            if let test = rewrite.expectation, !test.nested, test.checks.allSatisfy(ExpectationTestRule.isAssertion),
                context.index.typesBySimpleName[type] != nil
            {
                rewrite.branches = branches
                rewrite.branches?.errorName = name
                rewrite.branches?.errorType = type
                return .proceed(rewrite)
            }
            return .leave(
                .failureType,
                "the failure code uses `\(name)` as `\(failure.trimmedDescription)`; the awaited call throws `any Error`"
            )
        }
        rewrite.branches = branches
        return .proceed(rewrite)
    }

    /// `.success(let v)`, `let .success(v)`, `.success`, `.success(_)`: .some(name or nil); nil otherwise.
    static func bound(_ pattern: String, _ name: String) -> String?? {
        if pattern == "." + name || pattern == ".\(name)(_)" || pattern == ".\(name)(let _)" { return .some(nil) }
        for (prefix, suffix) in [(".\(name)(let ", ")"), ("let .\(name)(", ")")]
        where pattern.hasPrefix(prefix) && pattern.hasSuffix(suffix) {
            let bound = pattern.dropFirst(prefix.count).dropLast(suffix.count)
            if !bound.isEmpty, bound.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                return .some(String(bound))
            }
        }
        return nil
    }

    private static func switchBranches(_ switchExpr: SwitchExprSyntax, over result: String) -> HandlerBranches? {
        guard switchExpr.subject.trimmedDescription == result, switchExpr.cases.count == 2 else { return nil }
        var success: (String?, [CodeBlockItemSyntax])?
        var failure: (String?, [CodeBlockItemSyntax])?
        for element in switchExpr.cases {
            guard let switchCase = element.as(SwitchCaseSyntax.self) else { return nil }
            var statements = Array(switchCase.statements)
            if statements.count == 1, statements[0].item.is(BreakStmtSyntax.self) { statements = [] }
            // `default:` after `.success`: the failure code, which binds no error.
            if case .default = switchCase.label, success != nil, failure == nil,
                !CallRewrite.uses("error", in: statements)
            {
                failure = (nil, statements)
                continue
            }
            guard case .case(let label) = switchCase.label, label.caseItems.count == 1,
                let item = label.caseItems.first, item.whereClause == nil
            else { return nil }
            let pattern = item.pattern.trimmedDescription
            if let name = bound(pattern, "success") {
                success = (name, statements)
            } else if let name = bound(pattern, "failure") {
                failure = (name, statements)
            }
        }
        guard let success, let failure, !CallRewrite.uses(result, in: success.1 + failure.1) else { return nil }
        return HandlerBranches(valueName: success.0, success: success.1, errorName: failure.0, failure: failure.1)
    }

    /// `if case .success(let v) = result { S } else { F }` (F does not use the result), or
    /// `… else if case .failure(let e) = result { F }`.
    private static func ifCaseBranches(_ ifExpr: IfExprSyntax, over result: String) -> HandlerBranches? {
        guard let (valueName, success) = caseCondition(ifExpr, "success", over: result) else { return nil }
        let failure: (String?, [CodeBlockItemSyntax])
        switch ifExpr.elseBody {
        case .codeBlock(let block):
            failure = (nil, Array(block.statements))
        case .ifExpr(let next):
            guard next.elseBody == nil, let found = caseCondition(next, "failure", over: result) else { return nil }
            failure = found
        case nil:
            return nil
        }
        guard !CallRewrite.uses(result, in: success + failure.1),
            failure.0 != nil || !CallRewrite.uses("error", in: failure.1)
        else { return nil }
        return HandlerBranches(valueName: valueName, success: success, errorName: failure.0, failure: failure.1)
    }

    private static func caseCondition(_ ifExpr: IfExprSyntax, _ name: String, over result: String)
        -> (String?, [CodeBlockItemSyntax])?
    {
        guard ifExpr.conditions.count == 1,
            let condition = ifExpr.conditions.first?.condition.as(MatchingPatternConditionSyntax.self),
            condition.initializer.value.trimmedDescription == result,
            let bound = bound(condition.pattern.trimmedDescription, name)
        else { return nil }
        return (bound, Array(ifExpr.body.statements))
    }

    /// `do { let v = try result.get(); S } catch { F }`: the same do/catch, with the await.
    private static func getBranches(_ doStmt: DoStmtSyntax, over result: String) -> HandlerBranches? {
        guard doStmt.catchClauses.count == 1, let clause = doStmt.catchClauses.first,
            let first = doStmt.body.statements.first
        else { return nil }
        let errorName: String?
        if clause.catchItems.isEmpty {
            errorName = nil
        } else if clause.catchItems.count == 1, let item = clause.catchItems.first, item.whereClause == nil,
            let pattern = item.pattern?.as(ValueBindingPatternSyntax.self),
            let name = pattern.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        {
            errorName = name
        } else {
            return nil
        }
        let get = "try \(result).get()"
        let valueName: String?
        if let variable = first.item.as(VariableDeclSyntax.self), variable.bindings.count == 1,
            variable.bindingSpecifier.tokenKind == .keyword(.let), let binding = variable.bindings.first,
            binding.typeAnnotation == nil, binding.initializer?.value.trimmedDescription == get,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        {
            valueName = name
        } else if first.trimmedDescription == get || first.trimmedDescription == "_ = " + get {
            valueName = nil
        } else {
            return nil
        }
        let success = Array(doStmt.body.statements.dropFirst())
        let failure = Array(clause.body.statements)
        guard !CallRewrite.uses(result, in: success + failure) else { return nil }
        return HandlerBranches(valueName: valueName, success: success, errorName: errorName, failure: failure)
    }

    static let examples: [CallExample] = [
        CallExample(
            "a handler that passes its result on: the result comes back from a `do`/`catch`",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.load(id: 5) { result in
                        report(result, to: trace)
                    }
                }

                func report(_ result: Result<String, any Error>, to trace: Trace) {
                    switch result {
                    case .success(let text):
                        trace.log("loaded \\(text)")
                    case .failure(let error):
                        trace.failed(error)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    let result: Result<String, any Error>
                    do {
                        result = .success(try await api.load(id: 5))
                    } catch {
                        result = .failure(error)
                    }
                    report(result, to: trace)
                }

                func report(_ result: Result<String, any Error>, to trace: Trace) {
                    switch result {
                    case .success(let text):
                        trace.log("loaded \\(text)")
                    case .failure(let error):
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "switch over the result",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.load(id: 1) { result in
                        switch result {
                        case .success(let value):
                            // The value, as it came.
                            trace.log("got \\(value)")
                        case .failure(let error):
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await api.load(id: 1)
                        // The value, as it came.
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
        CallExample(
            "if case .success, else",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.load(id: 6) { result in
                        if case .success(let value) = result {
                            trace.log("got \\(value)")
                        } else {
                            trace.log("no value")
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await api.load(id: 6)
                        trace.log("got \\(value)")
                    } catch {
                        trace.log("no value")
                    }
                }
                """)),
        CallExample(
            "try result.get(): the do/catch stays as it was, around the await",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.load(id: 7) { result in
                        do {
                            let value = try result.get()
                            try trace.check(value)
                            trace.log("got \\(value)")
                        } catch let failure {
                            trace.failed(failure)
                        }
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await api.load(id: 7)
                        try trace.check(value)
                        trace.log("got \\(value)")
                    } catch let failure {
                        trace.failed(failure)
                    }
                }
                """)),
    ]

    /// A handler that uses its result whole (`stored = result`, `finish(result)`): the result
    /// comes back from a `do`/`catch` around the await, as a `let` of the handler's name, and
    /// the handler's code follows, as it was (both in a `do { }` of their own when a name they
    /// declare is declared beside the call too). Only for a failure of `any Error` (every error
    /// the await throws fits it), and where the result's type is written at the call (the
    /// handler's annotation) or names only types the code can name.
    static func wholeResult(
        _ rewrite: CallRewrite, success: TypeSyntax, failure: TypeSyntax, name: String, context: RuleContext
    ) -> CallStep {
        guard TypeText.isError(failure), !rewrite.hopsToMain, name != "_", !rewrite.body.isEmpty,
            let type = resultType(rewrite, success: success, context: context)
        else { return .proceed(rewrite) }
        var rewrite = rewrite
        // The `let` and the handler's code go beside the call: a name declared there already
        // would be declared twice, and a read of `name` before the call (a property, through
        // `self`) would read the new `let` before its declaration. Then they go in a `do { }`.
        if let statement = rewrite.statement, let list = statement.parent?.as(CodeBlockItemListSyntax.self) {
            let others = list.filter { $0.id != statement.id }
            let moved = Set([name] + CallRewrite.declared(in: rewrite.body))
            let before = list.prefix { $0.id != statement.id }
            rewrite.scopesWholeResult =
                !moved.isDisjoint(with: CallRewrite.declared(in: Array(others)))
                || CallSiteWriter.reads(name, in: Array(before))
        }
        rewrite.branches = HandlerBranches(valueName: nil, success: [], errorName: nil, failure: [], tail: rewrite.body)
        rewrite.wholeResult = (name, type)
        return .proceed(rewrite)
    }

    /// The names a call site can always write.
    private static let standardNames: Set<String> = [
        "String", "Int", "Bool", "Double", "Float", "Data", "URL", "Date", "UUID", "Void", "Array", "Dictionary",
        "Optional", "Set", "Any", "AnyObject", "URLResponse", "HTTPURLResponse", "Int64", "UInt", "Character",
    ]

    /// `Result<Success, any Error>`: the handler's own annotation, or the API's success type when
    /// every name in it is a standard type, a type of the module, or a generic parameter the
    /// call names through a metatype argument (``namedGenerics(_:)``).
    private static func resultType(_ rewrite: CallRewrite, success: TypeSyntax, context: RuleContext) -> String? {
        if let clause = rewrite.handler?.signature?.parameterClause?.as(ClosureParameterClauseSyntax.self),
            let type = clause.parameters.first?.type
        {
            return type.trimmedDescription
        }
        // A nested type (`Client.Item`) is written by its simple name in the API: not here.
        // A metatype of a type the code declares (`Model.Type`) is no generic parameter.
        let named = namedGenerics(rewrite).filter {
            !standardNames.contains($0.key) && context.index.typesBySimpleName[$0.key] == nil
        }
        let names = TypeText.mentionedNames(success)
        guard
            names.allSatisfy({
                standardNames.contains($0) || named[$0] != nil
                    || context.index.typesBySimpleName[$0].map { !$0.name.contains(".") } ?? false
            })
        else { return nil }
        var written = success.trimmedDescription
        if !named.isEmpty {
            written = success.tokens(viewMode: .sourceAccurate).map { token in
                guard case .identifier(let name) = token.tokenKind, let type = named[name] else {
                    return token.leadingTrivia.description + token.text + token.trailingTrivia.description
                }
                return token.leadingTrivia.description + type + token.trailingTrivia.description
            }.joined()
            written = String(written.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        }
        return "Result<\(written), any Error>"
    }

    /// The generic parameters the call names through a metatype argument: `responseType:
    /// Int.self` for a parameter `responseType: U.Type` gives `U` = `Int`.
    private static func namedGenerics(_ rewrite: CallRewrite) -> [String: String] {
        guard let entry = rewrite.entry else { return [:] }
        var named: [String: String] = [:]
        for (argument, index) in zip(rewrite.call.arguments, rewrite.argumentParameters)
        where entry.parameters.indices.contains(index) {
            guard let metatype = entry.parameters[index].syntax.type.as(MetatypeTypeSyntax.self),
                metatype.metatypeSpecifier.text == "Type",
                let generic = metatype.baseType.as(IdentifierTypeSyntax.self), generic.genericArgumentClause == nil,
                let access = argument.expression.as(MemberAccessExprSyntax.self),
                access.declName.baseName.text == "self", let base = access.base
            else { continue }
            named[generic.name.text] = base.trimmedDescription
        }
        return named
    }
}
