import SwiftSyntax

/// Where a call runs: the nearest function, accessor, initializer or closure around it,
/// whether that is async, and whether it is isolated to the main actor.
struct CallContext {
    /// The function, accessor, initializer or closure whose body the call is in.
    var body: Syntax
    var isAsync: Bool
    /// Isolated to the main actor (the function, its type, or `Task { @MainActor in }`).
    var isMainActor: Bool

    /// The context of `node`; nil at file scope.
    init?(of node: some SyntaxProtocol, index: SourceIndex) {
        var current = node.parent
        while let syntax = current {
            if let function = syntax.as(FunctionDeclSyntax.self) {
                self.init(
                    body: syntax, isAsync: function.signature.effectSpecifiers?.asyncSpecifier != nil,
                    isMainActor: Self.isMainActor(function.attributes, function.modifiers, syntax, index: index))
                return
            }
            if let initializer = syntax.as(InitializerDeclSyntax.self) {
                self.init(
                    body: syntax, isAsync: initializer.signature.effectSpecifiers?.asyncSpecifier != nil,
                    isMainActor: Self.isMainActor(initializer.attributes, initializer.modifiers, syntax, index: index))
                return
            }
            if let accessor = syntax.as(AccessorDeclSyntax.self) {
                self.init(
                    body: syntax, isAsync: accessor.effectSpecifiers?.asyncSpecifier != nil,
                    isMainActor: Self.isMainActor(accessor.attributes, [], syntax, index: index))
                return
            }
            if let closure = syntax.as(ClosureExprSyntax.self) {
                let task = Self.taskKind(closure)
                let isolation = closure.signature.map { index.globalActorAttribute($0.attributes) } ?? nil
                let inherited = task == .task ? CallContext(of: closure, index: index)?.isMainActor ?? false : false
                self.init(
                    body: syntax,
                    isAsync: task != nil || closure.signature?.effectSpecifiers?.asyncSpecifier != nil
                        || Self.awaits(closure),
                    isMainActor: isolation == "@MainActor" || inherited)
                return
            }
            current = syntax.parent
        }
        return nil
    }

    private init(body: Syntax, isAsync: Bool, isMainActor: Bool) {
        self.body = body
        self.isAsync = isAsync
        self.isMainActor = isMainActor
    }

    private enum TaskKind { case task, detached }

    /// Why no function can become async for a call whose code is a synchronous closure (the
    /// handler of another call, a closure a helper runs): nil for a function's own code.
    var closureRole: String? {
        guard let closure = body.as(ClosureExprSyntax.self), !isAsync else { return nil }
        guard let call = Self.call(taking: closure) else {
            return "it is in a closure, which no `await` can reach"
        }
        let callee = call.calledExpression.trimmedDescription.prefix { $0 != "\n" }
        return "it is in a closure passed to `\(callee)(…)`, which stays synchronous: no `await` can go there"
    }

    /// The call `closure` is passed to, as an argument or a trailing closure.
    private static func call(taking closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        var parent = closure.parent
        if parent?.is(LabeledExprSyntax.self) ?? false { parent = parent?.parent?.parent }
        return parent?.as(FunctionCallExprSyntax.self)
    }

    /// `Task { }` (which inherits the context's isolation) or `Task.detached { }`.
    private static func taskKind(_ closure: ClosureExprSyntax) -> TaskKind? {
        guard let call = call(taking: closure) else { return nil }
        let callee = call.calledExpression.trimmedDescription
        if callee == "Task" || callee.hasPrefix("Task<") { return .task }
        if callee == "Task.detached" || callee.hasSuffix(">.detached") { return .detached }
        return nil
    }

    /// A declaration isolated to the main actor by its own attribute or its type's.
    private static func isMainActor(
        _ attributes: AttributeListSyntax, _ modifiers: DeclModifierListSyntax, _ node: Syntax, index: SourceIndex
    ) -> Bool {
        if modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) { return false }
        if let actor = index.globalActorAttribute(attributes) { return actor == "@MainActor" }
        var current = node.parent
        while let syntax = current {
            if let group = syntax.asProtocol(DeclGroupSyntax.self) {
                if let actor = index.globalActorAttribute(group.attributes) { return actor == "@MainActor" }
                let name =
                    syntax.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription
                    ?? syntax.asProtocol(NamedDeclSyntax.self)?.name.text
                if let name, let info = index.typeInfo(name), let actor = info.globalActor {
                    return actor == "@MainActor"
                }
            }
            current = syntax.parent
        }
        return index.defaultActor(at: node) == "@MainActor"
    }

    /// Whether a closure's own statements await (not those of closures nested in it).
    private static func awaits(_ closure: ClosureExprSyntax) -> Bool {
        final class Finder: SyntaxVisitor {
            var found = false
            override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
                found = true
                return .skipChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(closure.statements)
        return finder.found
    }
}
