import SwiftSyntax

/// A hand-written bridge: the continuation stores the call's handle, and
/// `withTaskCancellationHandler`'s `onCancel` cancels it.
///
/// ```swift
/// var task: FakeTask?  // or `nonisolated(unsafe) var`, or a holder: `let box = Box()`, `box.task`
/// return try await withTaskCancellationHandler {
///     try await withCheckedThrowingContinuation { continuation in
///         task = api.load(id: id) { result in continuation.resume(with: result) }
///     }
/// } onCancel: { task?.cancel() }
/// ```
///
/// The awaited form cancels the handle itself when the awaiting task is cancelled: the whole
/// bridge becomes `try await api.load(id: id)` and the handle's declaration goes, when
/// nothing else uses the handle.
enum CancelledHandleBridge {
    typealias Refusal = ResumedContinuation.Refusal

    static func match(_ resumed: ResumedContinuation, handle target: ExprSyntax)
        -> Result<ResumedContinuation, Refusal>
    {
        let path = target.trimmedDescription
        let root: String
        if let reference = target.as(DeclReferenceExprSyntax.self) {
            root = reference.baseName.text
        } else if let member = target.as(MemberAccessExprSyntax.self),
            let base = member.base?.as(DeclReferenceExprSyntax.self)
        {
            root = base.baseName.text
        } else {
            return .failure(Refusal("the handle is stored in `\(path)`, " + laterCancel))
        }
        guard let bridge = Self.bridge(around: resumed.expression), let onCancel = Self.onCancel(of: bridge) else {
            return .failure(
                Refusal(
                    "the handle is stored in `\(path)`, and no `withTaskCancellationHandler` around the continuation "
                        + "cancels it: " + laterCancel))
        }
        if let capture = onCancel.signature?.capture {
            return .failure(
                Refusal(
                    "`onCancel` captures `\(capture.trimmedDescription)` when the bridge starts, before the call "
                        + "stores the handle: today it cancels nothing (the awaited call would cancel the operation)"))
        }
        guard onCancel.statements.count == 1,
            ["?", "", "!"].contains(where: {
                onCancel.statements.first?.item.trimmedDescription == "\(path)\($0).cancel()"
            })
        else {
            return .failure(
                Refusal("`onCancel` does more than `\(path)?.cancel()`: that code has no place in the awaited call"))
        }
        let expression: ExprSyntax
        switch ResumedContinuation.awaited(ExprSyntax(bridge)) {
        case .success(let awaited): expression = awaited
        case .failure(let refusal): return .failure(refusal)
        }
        guard let (declaration, list) = Self.declaration(of: root, before: expression, path: path) else {
            return .failure(
                Refusal(
                    "the handle is stored in `\(path)`, which is not a local declared before the bridge: code "
                        + "elsewhere may cancel it later; " + laterCancel))
        }
        // The declaration, the assignment and `onCancel`: any other use keeps the bridge.
        let uses = list.tokens(viewMode: .sourceAccurate).filter {
            $0.tokenKind == .identifier(root) && $0.previousToken(viewMode: .sourceAccurate)?.tokenKind != .period
        }
        guard uses.count == 3 else {
            let other = uses.first {
                !(declaration.range.contains($0.position) || onCancel.range.contains($0.position)
                    || target.range.contains($0.position))
            }
            let text = other?.parent.flatMap { Self.statement(of: Syntax($0)) }?.trimmedDescription ?? root
            return .failure(
                Refusal(
                    "the handle in `\(path)` is used besides `onCancel` (`\(text.prefix { $0 != "\n" })`): "
                        + laterCancel))
        }
        var bridged = resumed
        bridged.expression = expression
        bridged.removed = [declaration]
        return .success(bridged)
    }

    /// Why a handle used elsewhere keeps the call as it is.
    static let laterCancel = KeptHandleRule.noHandleLeft

    /// `withTaskCancellationHandler { <expression> } onCancel: { … }`, the expression its operation's only statement.
    private static func bridge(around expression: ExprSyntax) -> FunctionCallExprSyntax? {
        guard let item = expression.parent?.as(CodeBlockItemSyntax.self),
            let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
            let operation = list.parent?.as(ClosureExprSyntax.self),
            let call = ConfirmationTestRule.wrapper(operation, names: ["withTaskCancellationHandler"])
        else { return nil }
        // The operation: the trailing closure, or `operation:`.
        if call.trailingClosure?.id == operation.id
            || call.arguments.contains(where: { $0.label?.text == "operation" && $0.expression.id == operation.id })
        {
            return call
        }
        return nil
    }

    /// The closure `onCancel:` (or the older `handler:`).
    private static func onCancel(of bridge: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let trailing = bridge.additionalTrailingClosures.first(where: { $0.label.text == "onCancel" }) {
            return trailing.closure
        }
        return bridge.arguments.first { ["onCancel", "handler"].contains($0.label?.text) }?.expression.as(
            ClosureExprSyntax.self)
    }

    /// `var root: T?` (`= nil`; `nonisolated(unsafe)` allowed) for a handle stored in `root`,
    /// `let root = Holder()` for one stored in `root.member`.
    private static func declares(_ root: String, _ item: CodeBlockItemSyntax, _ path: String) -> Bool {
        guard let declaration = item.item.as(VariableDeclSyntax.self), declaration.bindings.count == 1,
            let binding = declaration.bindings.first,
            binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == root
        else { return false }
        let keyword = declaration.bindingSpecifier.tokenKind
        if path == root {
            return keyword == .keyword(.var) && binding.typeAnnotation?.type.is(OptionalTypeSyntax.self) ?? false
                && [nil, "nil"].contains(binding.initializer?.value.trimmedDescription)
        }
        guard keyword == .keyword(.let), let value = binding.initializer?.value.as(FunctionCallExprSyntax.self) else {
            return false
        }
        return value.arguments.isEmpty && value.trailingClosure == nil
    }

    /// The declaration of `root` before the statement `node` is in, or before one of the
    /// statements around it (up to the function), and the statements it is in.
    private static func declaration(of root: String, before node: ExprSyntax, path: String)
        -> (CodeBlockItemSyntax, CodeBlockItemListSyntax)?
    {
        var current = statement(of: Syntax(node))
        while let item = current, let list = item.parent?.as(CodeBlockItemListSyntax.self) {
            if let found = list.prefix(while: { $0.id != item.id }).last(where: { declares(root, $0, path) }) {
                return (found, list)
            }
            // Up to the function's (or closure's) own statements.
            guard let block = list.parent?.as(CodeBlockSyntax.self), let owner = block.parent,
                !owner.is(DeclSyntax.self), !owner.is(AccessorDeclSyntax.self)
            else { return nil }
            current = statement(of: owner)
        }
        return nil
    }

    private static func statement(of node: Syntax) -> CodeBlockItemSyntax? {
        var current: Syntax? = node
        while let syntax = current, !syntax.is(CodeBlockItemSyntax.self) { current = syntax.parent }
        return current?.as(CodeBlockItemSyntax.self)
    }
}
