import SwiftSyntax

/// A call of the function's own completion handler, and what the async version does
/// instead: `completion(.success(x))` returns `x`, `completion(.failure(e))` throws `e`;
/// `(T?, Error?)` and `(Error?)` handlers likewise; `(T)` returns what it is passed.
struct CompletionCallRule: DocumentedFunctionRule {
    static let summary =
        "`completion(.success(x))` becomes `return x`, `completion(.failure(e))` `throw e`, a `Result` passed on "
        + "`return try r.get()`; `completion(x, nil)` / `completion(nil, e)` and `completion(nil)` / `completion(e)` "
        + "likewise, for a value or an error the code has bound (never an optional). A `(T) -> Void` handler has no "
        + "error: `completion(x)` becomes `return x`, and the shim calls the handler with the value only (what the "
        + "awaited calls throw, a handler never called, reached no handler before either)."

    /// What the async version does where the handler was called.
    enum Outcome {
        /// `return x` (`return` for no value).
        case value(String?)
        /// `throw e`.
        case error(String)
        /// `return try r.get()`.
        case result(String)
    }

    /// The outcome of `call`, a call of the handler with `shape`; nil when the arguments are
    /// not in a form this rule knows. `bound` are the names the code has unwrapped or
    /// caught (a value or an error that is not optional).
    static func outcome(_ call: FunctionCallExprSyntax, shape: HandlerShape, bound: Set<String>) -> Outcome? {
        let arguments = call.arguments.map(\.expression)
        guard call.trailingClosure == nil, call.arguments.allSatisfy({ $0.label == nil }) else { return nil }
        switch shape {
        case .result:
            guard arguments.count == 1, let only = arguments.first else { return nil }
            if let inner = only.as(FunctionCallExprSyntax.self),
                let member = inner.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
                inner.arguments.count == 1, let value = inner.arguments.first?.expression
            {
                switch member.declName.baseName.text {
                case "success": return .value(value.trimmedDescription == "()" ? nil : value.trimmedDescription)
                case "failure": return .error(value.trimmedDescription)
                default: return nil
                }
            }
            if let name = only.as(DeclReferenceExprSyntax.self)?.baseName.text { return .result(name) }
            return nil
        case .errorOnly:
            guard arguments.count == 1, let only = arguments.first else { return nil }
            if only.is(NilLiteralExprSyntax.self) { return .value(nil) }
            return isError(only, bound: bound) ? .error(only.trimmedDescription) : nil
        case .value:
            // Whatever is passed is the value: the handler has no error.
            guard arguments.count == 1, let only = arguments.first else { return nil }
            return .value(only.trimmedDescription)
        case .optionalValueAndError:
            guard arguments.count == 2 else { return nil }
            let (value, error) = (arguments[0], arguments[1])
            if error.is(NilLiteralExprSyntax.self), isValue(value, bound: bound) {
                return .value(value.trimmedDescription)
            }
            if value.is(NilLiteralExprSyntax.self), isError(error, bound: bound) {
                return .error(error.trimmedDescription)
            }
            return nil
        default:
            return nil
        }
    }

    /// A name the code bound (not optional), or an error made on the spot (`FakeError()`).
    private static func isError(_ expression: ExprSyntax, bound: Set<String>) -> Bool {
        if let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text { return bound.contains(name) }
        return expression.as(FunctionCallExprSyntax.self)?.calledExpression.is(DeclReferenceExprSyntax.self) ?? false
    }

    /// A name the code bound (not optional), or a literal.
    private static func isValue(_ expression: ExprSyntax, bound: Set<String>) -> Bool {
        if let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text { return bound.contains(name) }
        return expression.is(StringLiteralExprSyntax.self) || expression.is(IntegerLiteralExprSyntax.self)
            || expression.is(BooleanLiteralExprSyntax.self)
    }

    /// The statements that replace the handler's call.
    static func text(_ outcome: Outcome, valueIsVoid: Bool, atEnd: Bool) -> [String] {
        switch outcome {
        case .value(let value?): return ["return \(value)"]
        case .value(nil): return atEnd ? [] : ["return"]
        case .error(let error): return ["throw \(error)"]
        case .result(let result) where valueIsVoid: return ["try \(result).get()"] + (atEnd ? [] : ["return"])
        case .result(let result): return ["return try \(result).get()"]
        }
    }

    static let examples: [CallExample] = errorExamples + valueExamples

    private static let errorExamples: [CallExample] = [
        CallExample(
            "`(T?, Error?)`: the value the code unwrapped is returned, the error thrown",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    describe(api: api, id: 1) { text, error in
                        trace.delivered("described \\(text ?? "-") \\(error == nil)")
                    }
                }

                func describe(api: FakeAPI, id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
                    api.fetch(id: id) { text, error in
                        if let error {
                            completion(nil, error)
                            return
                        }
                        guard let text else {
                            completion(nil, FakeError())
                            return
                        }
                        completion(text, nil)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    describe(api: api, id: 1) { text, error in
                        trace.delivered("described \\(text ?? "-") \\(error == nil)")
                    }
                }

                func describe(api: FakeAPI, id: Int) async throws -> String {
                    let text = try await api.fetch(id: id)
                    return text
                }

                /// Completion-handler form of `describe(api:id:)`, for callers not migrated yet.
                @available(*, renamed: "describe(api:id:)")
                func describe(api: FakeAPI, id: Int, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
                    Future<String> { try await describe(api: api, id: id) }.deliver(on: .inline, to: completion)
                }
                """),
            notes: ["neither a value nor an error"]),
        CallExample(
            "`(Error?)`: nil returns, the error caught is thrown",
            before: """
                func run(api: FakeAPI, trace: Trace) {
                    store(api: api, text: "a") { error in
                        trace.delivered("stored \\(error == nil)")
                    }
                }

                func store(api: FakeAPI, text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    api.save(text) { error in
                        if let error {
                            completion(error)
                            return
                        }
                        completion(nil)
                    }
                }
                """,
            after: .rewritten(
                """
                func run(api: FakeAPI, trace: Trace) {
                    store(api: api, text: "a") { error in
                        trace.delivered("stored \\(error == nil)")
                    }
                }

                func store(api: FakeAPI, text: String) async throws {
                    try await api.save(text)
                }

                /// Completion-handler form of `store(api:text:)`, for callers not migrated yet.
                @available(*, renamed: "store(api:text:)")
                func store(api: FakeAPI, text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
                    Future<Void> { try await store(api: api, text: text) }.deliver(on: .inline, to: completion)
                }
                """)),
    ]
}
