import SwiftSyntax

extension SyncPropagation {
    /// Why `function` cannot become async with its callers; nil when it can.
    func ineligible(_ function: FunctionDeclSyntax) -> String? {
        let name = function.name.text
        if function.signature.effectSpecifiers?.asyncSpecifier != nil { return "is async already" }
        if function.body == nil { return "has no body" }
        if let type = function.signature.returnClause?.type, !TypeText.isVoid(type) { return "returns a value" }
        if function.signature.effectSpecifiers?.throwsClause?.throwsSpecifier.tokenKind == .keyword(.rethrows) {
            return "rethrows"
        }
        // Its own access, or its extension's (`public extension T { func f() }` is public).
        let enclosing = function.parent?.parent?.parent?.parent?.as(ExtensionDeclSyntax.self)?.modifiers ?? []
        for modifier in Array(function.modifiers) + Array(enclosing) {
            switch modifier.name.tokenKind {
            case .keyword(.override): return "is an override: its signature is its superclass's"
            case .keyword(.public), .keyword(.open), .keyword(.package):
                return "is \(modifier.name.text): callers outside the module would have to await it"
            case .keyword(.dynamic): return "is `dynamic`"
            default: continue
            }
        }
        if let owner = ModuleFunctions.owner(of: function) {
            if module.objc.contains(owner) { return "is a member of `@objc` code: the runtime may call it" }
            // A requirement of another module's protocol (a delegate method) that stopped
            // matching would no longer be called, and the compiler might only warn.
            if let outside = (module.inherited[owner] ?? []).sorted().first(where: {
                !module.types.contains($0) && !Self.conformancesWithoutMethods.contains($0)
            }) {
                return "is a member of `\(owner)`, which inherits from or conforms to `\(outside)` of another "
                    + "module: it may be what that type calls"
            }
        }
        let attributes = function.attributes.compactMap {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
        }
        if let runtime = attributes.first(where: { ["objc", "IBAction", "IBSegueAction", "Test"].contains($0) }) {
            return "is `@\(runtime)`: the runtime calls it synchronously"
        }
        if name == "main" || Self.isTest(Syntax(function)) { return "is an entry point" }
        if function.signature.parameterClause.parameters.contains(where: { $0.type.trimmedDescription.contains("->") })
        {
            return "takes a closure"
        }
        if module.required.contains(name) { return "has the name of a protocol requirement of the module" }
        if module.overridden.contains(name) { return "is overridden" }
        if module.referenced.contains(name) { return "is used as a value (a selector, a function passed on)" }
        if module.declared[ModuleFunctions.key(function), default: 0] > 1 {
            return
                "shares its name and labels with another function of the module: which one a call reaches is not known"
        }
        return nil
    }

    /// Protocols of the standard library and Foundation that ask for no method a function
    /// made async could have matched.
    static let conformancesWithoutMethods: Set<String> = [
        "Sendable", "Equatable", "Hashable", "Codable", "Encodable", "Decodable", "CustomStringConvertible",
        "CustomDebugStringConvertible", "Identifiable", "Error", "LocalizedError", "Comparable", "ObservableObject",
        "AnyObject", "CaseIterable", "RawRepresentable", "String", "Int",
    ]

    /// The statement a call is: `f(…)` or `try f(…)`.
    static func statement(of call: FunctionCallExprSyntax) -> CodeBlockItemSyntax? {
        var node = Syntax(call)
        if let parent = node.parent, parent.is(TryExprSyntax.self) { node = parent }
        return node.parent?.as(CodeBlockItemSyntax.self)
    }

    /// `try f(…)`: the `try` before a call.
    static func tryExpression(of call: FunctionCallExprSyntax) -> TryExprSyntax? {
        call.parent?.as(TryExprSyntax.self)
    }

    /// The function, closure, accessor or initializer a call is made in; nil in a `defer`,
    /// a `deinit` or outside code.
    static func context(of node: some SyntaxProtocol) -> Syntax? {
        var current = node.parent
        while let syntax = current {
            if syntax.is(FunctionDeclSyntax.self) || syntax.is(ClosureExprSyntax.self)
                || syntax.is(AccessorDeclSyntax.self) || syntax.is(InitializerDeclSyntax.self)
            {
                return syntax
            }
            if syntax.is(DeferStmtSyntax.self) || syntax.is(DeinitializerDeclSyntax.self)
                || syntax.isProtocol(DeclGroupSyntax.self)
            {
                return nil
            }
            current = syntax.parent
        }
        return nil
    }

    /// A test method: `@Test`, or `test…()` in a class of a file that imports XCTest.
    static func isTest(_ context: Syntax) -> Bool {
        guard let function = context.as(FunctionDeclSyntax.self) else { return false }
        if function.attributes.contains(where: {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Test"
        }) {
            return true
        }
        guard function.name.text.hasPrefix("test"), function.signature.parameterClause.parameters.isEmpty,
            !function.modifiers.contains(where: {
                [.keyword(.override), .keyword(.private), .keyword(.fileprivate), .keyword(.static)].contains(
                    $0.name.tokenKind)
            }),
            // A method of a class with a superclass (`XCTestCase`, or a base test class).
            let type = function.parent?.parent?.parent?.parent?.as(ClassDeclSyntax.self),
            type.inheritanceClause != nil
        else { return false }
        let root = function.root.as(SourceFileSyntax.self)
        return root?.statements.contains {
            $0.item.as(ImportDeclSyntax.self)?.path.trimmedDescription == "XCTest"
        } ?? false
    }

    /// The first line of the code that runs after `statement` in `context` (a statement after
    /// it, a loop's next round, a `defer`); nil when it is the last thing. A test may go on
    /// with assertions, which ran after a synchronous double's handler and still do.
    static func codeAfter(_ statement: CodeBlockItemSyntax, in context: Syntax, allowingAssertions: Bool) -> String? {
        var node = Syntax(statement)
        while node.id != context.id {
            if let item = node.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self) {
                let items = Array(list)
                let position = items.firstIndex { $0.id == item.id } ?? items.count - 1
                let after = items[(position + 1)...].filter { later in
                    if let done = later.item.as(ReturnStmtSyntax.self), done.expression == nil { return false }
                    return !(allowingAssertions && ExpectationTestRule.isAssertion(later))
                }
                if let first = after.first { return String(first.trimmedDescription.prefix { $0 != "\n" }) }
                if let deferred = items.first(where: { $0.item.is(DeferStmtSyntax.self) }) {
                    return String(deferred.trimmedDescription.prefix { $0 != "\n" })
                }
            }
            if node.is(ForStmtSyntax.self) || node.is(WhileStmtSyntax.self) || node.is(RepeatStmtSyntax.self) {
                return "the loop's next round"
            }
            if node.is(GuardStmtSyntax.self) { return "the code after the `guard`" }
            guard let parent = node.parent else { break }
            node = parent
        }
        return nil
    }

    /// Why synchronous code cannot start a task for the chain; nil when it can: a function
    /// (not XCTest's `setUp` or `tearDown`, which ran before and after the test), a closure
    /// stored to be called later, or work handed to a dispatch queue.
    static func rootProblem(_ caller: Syntax) -> String? {
        if let function = caller.as(FunctionDeclSyntax.self),
            ["setUp", "setUpWithError", "tearDown", "tearDownWithError"].contains(function.name.text)
        {
            return "is in `\(function.name.text)`: the test would run before the work a task started there"
        }
        guard let closure = caller.as(ClosureExprSyntax.self) else { return nil }
        if dispatchCall(around: closure) != nil { return nil }
        var parent = closure.parent
        if parent?.is(InitializerClauseSyntax.self) ?? false { return nil }  // `let start = { … }`
        if let list = parent?.as(ExprListSyntax.self), list.count == 3,
            list.dropFirst().first?.is(AssignmentExprSyntax.self) ?? false
        {
            return nil  // `onTap = { … }`
        }
        if parent?.is(LabeledExprSyntax.self) ?? false { parent = parent?.parent?.parent }
        let callee = parent?.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription ?? "a call"
        return "is in a closure passed to `\(callee)`, which may call it many times, or before it returns"
    }

    /// `queue.async { }` or `queue.asyncAfter(…) { }`, where the closure is the work.
    static func dispatchCall(around closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        var parent = closure.parent
        if parent?.is(LabeledExprSyntax.self) ?? false { parent = parent?.parent?.parent }
        guard let call = parent?.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            ["async", "asyncAfter"].contains(member.declName.baseName.text)
        else { return nil }
        return call
    }

    /// Work handed to the main queue: its task runs on the main actor, as the work did.
    static func isMainQueueWork(_ caller: Syntax) -> Bool {
        guard let closure = caller.as(ClosureExprSyntax.self), let call = dispatchCall(around: closure),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return false }
        return member.base?.trimmedDescription == "DispatchQueue.main"
    }

    /// Whether `function` runs isolated to an actor: an actor's method, a global actor's
    /// attribute on it or its type, or the module's default isolation.
    static func isIsolated(_ function: FunctionDeclSyntax, index: SourceIndex) -> Bool {
        if function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) { return false }
        if index.globalActorAttribute(function.attributes) != nil { return true }
        var current = function.parent
        while let syntax = current {
            if syntax.is(ActorDeclSyntax.self) { return true }
            if let group = syntax.asProtocol(DeclGroupSyntax.self), index.globalActorAttribute(group.attributes) != nil
            {
                return true
            }
            current = syntax.parent
        }
        guard let first = function.body?.statements.first else { return false }
        return CallContext(of: first, index: index)?.isMainActor ?? false
    }

    /// `Owner.name(label:)`, as the report names functions.
    static func displayName(_ function: FunctionDeclSyntax) -> String {
        var owner: String?
        var current = function.parent
        while let syntax = current, owner == nil {
            if let extended = syntax.as(ExtensionDeclSyntax.self) {
                owner = extended.extendedType.trimmedDescription
            } else if syntax.isProtocol(DeclGroupSyntax.self), let named = syntax.asProtocol(NamedDeclSyntax.self) {
                owner = named.name.text
            }
            current = syntax.parent
        }
        return (owner.map { $0 + "." } ?? "") + ModuleFunctions.key(function)
    }

    /// The 1-based line a declaration starts on.
    static func line(of node: some SyntaxProtocol, in writer: CallSiteWriter) -> Int {
        writer.converter.location(for: node.positionAfterSkippingLeadingTrivia).line
    }
}
