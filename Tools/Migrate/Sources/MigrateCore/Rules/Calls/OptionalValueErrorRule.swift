import SwiftSyntax

/// A `(T?, Error?)` handler: `if let error { …; return }`, then `guard let value else { …; return }`,
/// then the success code.
struct OptionalValueErrorRule: CallRule {
    static let summary =
        "A `(T?, Error?)` handler that handles the error first (`if let error { …; return }`) and then unwraps the "
        + "value (`guard let value else { …; return }`) becomes `let value = try await …`, the failure code in the "
        + "`catch`."

    static let neither =
        "a handler called with neither a value nor an error ran the `guard`'s `else`; the async form throws "
        + "`InvalidCallbackError` instead, which the failure code gets"

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        guard rewrite.branches == nil, let entry = rewrite.entry, case .optionalValueAndError = entry.shape,
            let names = rewrite.parameterNames, names.count == 2
        else { return .proceed(rewrite) }
        let (value, error) = (names[0], names[1])
        if let first = rewrite.body.first, let (valueName, failure) = Self.guardBoth(first, value: value, error: error)
        {
            // `guard let value, error == nil else { F; return }`: F ran for an error and for
            // neither, as the `catch` does (the form throws `InvalidCallbackError` for neither).
            let success = Array(rewrite.body.dropFirst())
            guard !CallRewrite.uses(error, in: success + failure) else { return .proceed(rewrite) }
            rewrite.branches = HandlerBranches(
                valueName: valueName, success: success, errorName: nil, failure: failure)
            return .proceed(rewrite)
        }
        var body = rewrite.body[...]
        guard let first = body.first, let (errorName, failure) = ErrorOnlyRule.errorFirst(first, error: error) else {
            return .proceed(rewrite)
        }
        body = body.dropFirst()
        var valueName: String?
        if let next = body.first, let statement = next.item.as(GuardStmtSyntax.self),
            let bound = CallRewrite.optionalBinding(statement.conditions, of: value),
            CallRewrite.endsWithReturn(Array(statement.body.statements))
        {
            valueName = bound
            if statement.body.statements.count > 1 { rewrite.notes.append(Self.neither) }
            body = body.dropFirst()
        }
        let success = Array(body)
        if CallRewrite.uses(error, in: success) { return .proceed(rewrite) }
        if valueName == nil, value != "_", CallRewrite.uses(value, in: success) {
            return .leave(.handlerPattern, "the success code uses `\(value)` as an optional")
        }
        rewrite.branches = HandlerBranches(
            valueName: valueName, success: success, errorName: errorName == "error" ? nil : errorName,
            failure: failure)
        return .proceed(rewrite)
    }

    /// `guard let v = value, error == nil else { F; return }` (either order): the bound name and F.
    static func guardBoth(_ item: CodeBlockItemSyntax, value: String, error: String) -> (String, [CodeBlockItemSyntax])?
    {
        guard let statement = item.item.as(GuardStmtSyntax.self), statement.conditions.count == 2 else { return nil }
        var bound: String?
        var checksError = false
        for element in statement.conditions {
            let condition = element.with(\.trailingComma, nil)
            if let name = CallRewrite.optionalBinding([condition], of: value) {
                bound = name
            } else if condition.condition.trimmedDescription == "\(error) == nil" {
                checksError = true
            }
        }
        let failure = Array(statement.body.statements)
        guard let bound, checksError, CallRewrite.endsWithReturn(failure) else { return nil }
        return (bound, Array(failure.dropLast()))
    }

    static let examples: [CallExample] = [
        CallExample(
            "if let error, return; guard let value",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.fetch(id: 8) { value, error in
                        if let error {
                            trace.failed(error)
                            return
                        }
                        guard let value else {
                            trace.log("nothing")
                            return
                        }
                        trace.log("got \\(value)")
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let value = try await api.fetch(id: 8)
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """),
            notes: ["neither a value nor an error"]),
        CallExample(
            "guard let value, error == nil: the else ran for an error and for neither",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.fetch(id: 13) { text, error in
                        guard let text, error == nil else {
                            trace.log("no text")
                            return
                        }
                        trace.log("got \\(text)")
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let text = try await api.fetch(id: 13)
                        trace.log("got \\(text)")
                    } catch {
                        trace.log("no text")
                    }
                }
                """)),
        CallExample(
            "the error under another name",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.fetch(id: 9) { data, error in
                        if let failure = error {
                            trace.failed(failure)
                            return
                        }
                        guard let text = data else { return }
                        trace.log("got \\(text)")
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) async {
                    do {
                        let text = try await api.fetch(id: 9)
                        trace.log("got \\(text)")
                    } catch let failure {
                        trace.failed(failure)
                    }
                }
                """)),
        CallExample(
            "the value and the error used together, without `if let error { …; return }`: left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.fetch(id: 1) { text, error in
                        trace.log("fetched \\(text ?? "nothing"), failed: \\(error != nil)")
                    }
                }
                """,
            after: .leftAlone(.handlerPattern, "does not separate its success and failure code")),
        CallExample(
            "`if let error` without `return`: the code after it ran on both paths, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.fetch(id: 1) { text, error in
                        if let error {
                            trace.failed(error)
                        }
                        trace.log("done \\(text ?? "nothing")")
                    }
                }
                """,
            after: .leftAlone(.handlerPattern, "does not separate its success and failure code")),
        CallExample(
            "`if let text { … } else if let error { … }`: neither ran nothing, left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    api.fetch(id: 1) { text, error in
                        if let text {
                            trace.log("got \\(text)")
                        } else if let error {
                            trace.failed(error)
                        }
                    }
                }
                """,
            after: .leftAlone(.handlerPattern, "does not separate its success and failure code")),
    ]
}
