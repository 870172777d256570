import SwiftSyntax

/// What the module says about its functions, read once for ``SyncPropagation``: which
/// names a protocol declares, which are overridden, which are used as values (a selector,
/// a function passed on), and how many functions share a name and labels.
struct ModuleFunctions {
    private(set) var required: Set<String> = []
    private(set) var overridden: Set<String> = []
    private(set) var referenced: Set<String> = []
    private(set) var declared: [String: Int] = [:]
    /// The functions that keep their last closure parameter to call later (a test's spy
    /// stores the handler, and the test calls it after the call returns), by name.
    private(set) var keepers: Set<String> = []

    init(_ trees: [SourceFileSyntax]) {
        let finder = Finder(viewMode: .sourceAccurate)
        for tree in trees { finder.walk(tree) }
        required = finder.required
        overridden = finder.overridden
        referenced = finder.referenced
        declared = finder.declared
        keepers = finder.keepers
    }

    /// `name(label:…)`, the key of a function's name and labels.
    static func key(_ function: FunctionDeclSyntax) -> String {
        function.name.text + "("
            + function.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined() + ")"
    }

    private final class Finder: SyntaxVisitor {
        var required: Set<String> = []
        var overridden: Set<String> = []
        var referenced: Set<String> = []
        var declared: [String: Int] = [:]
        var keepers: Set<String> = []

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            declared[ModuleFunctions.key(node), default: 0] += 1
            if let last = node.signature.parameterClause.parameters.last, last.type.trimmedDescription.contains("->"),
                let body = node.body
            {
                let name = (last.secondName ?? last.firstName).text
                let kept = body.tokens(viewMode: .sourceAccurate).contains { token in
                    guard token.tokenKind == .identifier(name), let next = token.nextToken(viewMode: .sourceAccurate)
                    else { return false }
                    let called =
                        next.tokenKind == .leftParen
                        || (next.tokenKind == .postfixQuestionMark
                            && next.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen)
                    return !called
                }
                if kept { keepers.insert(node.name.text) }
            }
            if node.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) }) {
                overridden.insert(node.name.text)
            }
            return .visitChildren
        }

        override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
            for member in node.memberBlock.members {
                if let function = member.decl.as(FunctionDeclSyntax.self) { required.insert(function.name.text) }
            }
            return .visitChildren
        }

        /// A name that is not the callee of a call: a value (`action: refresh`, `#selector(refresh)`).
        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            var callee = Syntax(node)
            if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
                callee = Syntax(member)
            }
            if let call = callee.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == callee.id {
                return .visitChildren
            }
            referenced.insert(node.baseName.text)
            return .visitChildren
        }
    }
}

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
        for modifier in function.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.override): return "is an override: its signature is its superclass's"
            case .keyword(.public), .keyword(.open):
                return "is \(modifier.name.text): callers outside the module would have to await it"
            case .keyword(.dynamic): return "is `dynamic`"
            default: continue
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

    /// Whether code may await: `async`, a task's closure, or a closure that awaits already.
    static func isAsync(_ context: Syntax) -> Bool {
        if let function = context.as(FunctionDeclSyntax.self) {
            return function.signature.effectSpecifiers?.asyncSpecifier != nil
        }
        if let initializer = context.as(InitializerDeclSyntax.self) {
            return initializer.signature.effectSpecifiers?.asyncSpecifier != nil
        }
        if let accessor = context.as(AccessorDeclSyntax.self) {
            return accessor.effectSpecifiers?.asyncSpecifier != nil
        }
        guard let closure = context.as(ClosureExprSyntax.self) else { return false }
        if closure.signature?.effectSpecifiers?.asyncSpecifier != nil { return true }
        var parent = closure.parent
        if parent?.is(LabeledExprSyntax.self) ?? false { parent = parent?.parent?.parent }
        if let call = parent?.as(FunctionCallExprSyntax.self),
            ["Task", "Task.detached"].contains(call.calledExpression.trimmedDescription)
        {
            return true
        }
        return closure.statements.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.await) }
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
            !function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) })
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
