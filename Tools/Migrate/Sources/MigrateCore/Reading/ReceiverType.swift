import SwiftSyntax

/// The type of a call's receiver, where the syntax says it: `self` (or a call without a
/// receiver) inside a type, a static call `Type.f(…)`, and a local, parameter or property
/// declared with an explicit type (`let api: API`, `api: API`) or an initializer call
/// (`let api = API(…)`). Anything else (`let other = api`, `make().f(…)`, a closure
/// parameter without a type, a name bound by `if let x = …` or `for x in`) is unknown.
enum ReceiverType {
    /// What the syntax says of the receiver of `call`.
    enum Resolution: Equatable {
        /// No receiver (`f(…)`): a free function, or a method of the enclosing type (nil at file scope).
        case implicitSelf(String?)
        /// The receiver's type, by its last component (`API` for `Module.API<T>?`).
        case type(String)
        case unknown
    }

    /// A declaration found, with its type where the syntax says it.
    private struct Declared {
        var type: String?
    }

    static func of(_ call: FunctionCallExprSyntax) -> Resolution {
        if call.calledExpression.is(DeclReferenceExprSyntax.self) { return .implicitSelf(enclosingType(call)) }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), var base = member.base else {
            return .unknown
        }
        // `api?.f(…)`, `api!.f(…)`: the receiver is `api`.
        while true {
            if let chained = base.as(OptionalChainingExprSyntax.self) {
                base = chained.expression
            } else if let forced = base.as(ForceUnwrapExprSyntax.self) {
                base = forced.expression
            } else {
                break
            }
        }
        return type(of: base, at: call).map(Resolution.type) ?? .unknown
    }

    /// The protocols the declarations around `node` constrain the generic parameter `name`
    /// to (`<A: Authenticator>`, `where A: Authenticator & Sendable`), by their last components.
    static func constraints(of name: String, at node: some SyntaxProtocol) -> [String] {
        var found: [String] = []
        func add(_ type: TypeSyntax) {
            found += type.trimmedDescription.split(separator: "&").map {
                SourceIndex.lastComponent(String($0.filter { !$0.isWhitespace }))
            }
        }
        var current = node.parent
        while let syntax = current {
            if let generics = syntax.asProtocol(WithGenericParametersSyntax.self)?.genericParameterClause {
                for parameter in generics.parameters where parameter.name.text == name {
                    if let inherited = parameter.inheritedType { add(inherited) }
                }
            }
            for child in syntax.children(viewMode: .sourceAccurate) {
                guard let clause = child.as(GenericWhereClauseSyntax.self) else { continue }
                for requirement in clause.requirements {
                    if case .conformanceRequirement(let conformance) = requirement.requirement,
                        conformance.leftType.trimmedDescription == name
                    {
                        add(conformance.rightType)
                    }
                }
            }
            current = syntax.parent
        }
        return found
    }

    /// The type of `expression` as the declarations around `node` spell it.
    private static func type(of expression: ExprSyntax, at node: some SyntaxProtocol) -> String? {
        if expression.is(SuperExprSyntax.self) { return nil }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if name == "self" || name == "Self" { return enclosingType(node) }
            if let declared = declaredType(of: name, at: node) { return declared }
            // Not a name declared around the call: a type's name is a static call.
            return name.first?.isUppercase == true && !isBound(name, around: node) ? name : nil
        }
        // `self.api`: a property of the enclosing type.
        if let member = expression.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self),
            let owner = member.parent.flatMap(enclosingTypeDecl)
        {
            return property(member.declName.baseName.text, of: owner)
        }
        return nil
    }

    /// The type of the nearest declaration of `name` before `node`: a local, a parameter of
    /// the enclosing functions or closures, a property of the enclosing type.
    private static func declaredType(of name: String, at node: some SyntaxProtocol) -> String? {
        var child = Syntax(node)
        var current = node.parent
        while let syntax = current {
            if let items = syntax.as(CodeBlockItemListSyntax.self) {
                for item in items where item.position < child.position {
                    guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
                    if let found = binding(name, in: variable) { return found.type }
                }
            } else if let function = syntax.as(FunctionDeclSyntax.self) {
                if let found = parameter(name, in: function.signature.parameterClause) { return found.type }
            } else if let initializer = syntax.as(InitializerDeclSyntax.self) {
                if let found = parameter(name, in: initializer.signature.parameterClause) { return found.type }
            } else if let closure = syntax.as(ClosureExprSyntax.self), let found = closureParameter(name, closure) {
                return found.type
            } else if binds(syntax, name) {
                return nil
            } else if syntax.asProtocol(DeclGroupSyntax.self) != nil {
                return property(name, of: syntax)
            }
            child = syntax
            current = syntax.parent
        }
        return nil
    }

    /// Whether `name` is bound by something around `node` whose type this reader does not
    /// know (`if let name = …`, `for name in`, a closure parameter without a type).
    private static func isBound(_ name: String, around node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let syntax = current {
            if binds(syntax, name) { return true }
            if let closure = syntax.as(ClosureExprSyntax.self), closureParameter(name, closure) != nil { return true }
            current = syntax.parent
        }
        return false
    }

    /// `if`/`guard`/`while` conditions, `for … in` and `catch` patterns that bind `name`.
    private static func binds(_ syntax: Syntax, _ name: String) -> Bool {
        let patterns: [Syntax]
        if let statement = syntax.as(IfExprSyntax.self) {
            patterns = statement.conditions.map { Syntax($0) }
        } else if let statement = syntax.as(GuardStmtSyntax.self) {
            patterns = statement.conditions.map { Syntax($0) }
        } else if let statement = syntax.as(WhileStmtSyntax.self) {
            patterns = statement.conditions.map { Syntax($0) }
        } else if let statement = syntax.as(ForStmtSyntax.self) {
            patterns = [Syntax(statement.pattern)]
        } else if let clause = syntax.as(CatchClauseSyntax.self) {
            patterns = clause.catchItems.map { Syntax($0) }
        } else {
            return false
        }
        return patterns.contains { pattern in
            pattern.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(name) }
        }
    }

    private static func parameter(_ name: String, in clause: FunctionParameterClauseSyntax) -> Declared? {
        guard let parameter = clause.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name }) else {
            return nil
        }
        return Declared(type: typeName(parameter.type))
    }

    /// A closure's parameter named `name`, with its type if it is written (`(api: API) in`).
    private static func closureParameter(_ name: String, _ closure: ClosureExprSyntax) -> Declared? {
        switch closure.signature?.parameterClause {
        case .simpleInput(let list):
            return list.contains { $0.name.text == name } ? Declared(type: nil) : nil
        case .parameterClause(let clause):
            guard let parameter = clause.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name })
            else { return nil }
            return Declared(type: parameter.type.flatMap(typeName))
        case nil:
            return nil
        }
    }

    /// A property of the type declared by `group` (an extension reads the extended type's
    /// name only: its other extensions are not searched).
    private static func property(_ name: String, of group: Syntax) -> String? {
        guard let members = group.asProtocol(DeclGroupSyntax.self)?.memberBlock.members else { return nil }
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if let found = binding(name, in: variable) { return found.type }
        }
        return nil
    }

    /// The binding of `name` in `let`/`var`, with its type: written (`let api: API`), or an
    /// initializer call (`let api = API(…)`, `API.init(…)`); nil type when neither.
    private static func binding(_ name: String, in variable: VariableDeclSyntax) -> Declared? {
        guard
            let binding = variable.bindings.first(where: {
                $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
            })
        else { return nil }
        if let annotation = binding.typeAnnotation { return Declared(type: typeName(annotation.type)) }
        guard let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) else { return Declared(type: nil) }
        var callee = call.calledExpression
        if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init",
            let base = member.base
        {
            callee = base
        }
        let text = callee.trimmedDescription
        let isType = text.split(separator: ".").last?.first?.isUppercase == true
        return Declared(type: isType ? SourceIndex.lastComponent(text) : nil)
    }

    /// `Module.API<T>?`, `any API`, `API!` → `API`; nil for a function or tuple type.
    private static func typeName(_ type: TypeSyntax) -> String? {
        var text = type.trimmedDescription
        for prefix in ["any ", "some "] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
        guard let first = text.first, first.isLetter || first == "_" else { return nil }
        return SourceIndex.lastComponent(text)
    }

    /// The name of the type (or extended type) `node` is declared in.
    private static func enclosingType(_ node: some SyntaxProtocol) -> String? {
        guard let group = enclosingTypeDecl(Syntax(node)) else { return nil }
        if let extended = group.as(ExtensionDeclSyntax.self)?.extendedType {
            return SourceIndex.lastComponent(extended.trimmedDescription)
        }
        return group.asProtocol(NamedDeclSyntax.self)?.name.text
    }

    private static func enclosingTypeDecl(_ node: Syntax) -> Syntax? {
        var current: Syntax? = node
        while let syntax = current {
            if syntax.asProtocol(DeclGroupSyntax.self) != nil { return syntax }
            current = syntax.parent
        }
        return nil
    }
}
