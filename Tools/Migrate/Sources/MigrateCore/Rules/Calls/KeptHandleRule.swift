import SwiftSyntax

/// A call whose result is kept (`let task = api.load { }`) or used is left alone: the
/// awaited form returns the handler's value, not the handle.
struct KeptHandleRule: CallRule {
    static let summary =
        "The call is a statement of its own (`f { }` or `_ = f { }`); a returned handle that is kept or used is "
        + "left alone."

    func decide(_ rewrite: CallRewrite, in context: RuleContext) -> CallStep {
        var rewrite = rewrite
        var node = Syntax(rewrite.call)
        if let sequence = node.parent?.parent?.as(SequenceExprSyntax.self), sequence.elements.count == 3,
            sequence.elements.first?.trimmedDescription == "_",
            sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) ?? false
        {
            node = Syntax(sequence)
        }
        guard let item = node.parent?.as(CodeBlockItemSyntax.self) else {
            if let binding = rewrite.call.parent?.parent?.as(PatternBindingSyntax.self) {
                return .leave(
                    .keptHandle,
                    "the handle is kept in `\(binding.pattern.trimmedDescription)`; the awaited form returns the value")
            }
            return .leave(.keptHandle, "the call's result is used; the awaited form returns the handler's value")
        }
        rewrite.statement = item
        return .proceed(rewrite)
    }

    static let examples: [CallExample] = [
        CallExample(
            "a kept handle is left alone",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    let task = api.load(id: 1) { result in
                        trace.log("\\(result)")
                    }
                    trace.keepAlive(task)
                }
                """,
            after: .leftAlone(.keptHandle, "kept in `task`")),
        CallExample(
            "a discarded handle: the awaiting task's cancellation cancels the operation",
            before: """
                func run(api: FakeAPI, trace: Trace) async {
                    _ = api.load(id: 2) { result in
                        switch result {
                        case .success(let value):
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
                        let value = try await api.load(id: 2)
                        trace.log("got \\(value)")
                    } catch {
                        trace.failed(error)
                    }
                }
                """)),
    ]
}
