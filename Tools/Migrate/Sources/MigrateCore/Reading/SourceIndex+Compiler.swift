import SwiftParser
import SwiftSyntax

/// The compiler's answers (``CompilerIndex``), where a build gave them: they come first, and
/// the syntax's guesses only where the compiler has none.
extension SourceIndex {
    /// `parameters` of the function declared at `file:line`, each with the type the compiler
    /// resolved (type aliases expanded, a nested alias in its own type), when the index has
    /// the function and its labels are these.
    func resolved(
        _ parameters: [Parameter], file: String, line: Int, decl: FunctionDeclSyntax, context: DeclContext
    ) -> [Parameter] {
        guard let compiler, !file.isEmpty else { return parameters }
        let key = file + ":" + String(line)
        if resolvedTypes[key] == nil {
            let signature = compiler.resolvedSignature(
                file: file, line: line, genericNames: genericLevels(decl: decl, context: context),
                keepingSwiftFor: topLevelTypes)
            resolvedTypes[key] =
                signature.flatMap { signature in
                    signature.parameters.map(\.label) == parameters.map(\.label)
                        ? signature.parameters.map(\.syntax) : nil
                } ?? []
        }
        guard let types = resolvedTypes[key], types.count == parameters.count else { return parameters }
        return zip(parameters, types).map { parameter, resolvedType in
            var parameter = parameter
            parameter.resolvedType = resolvedType
            return parameter
        }
    }

    /// The source's generic parameter names by depth, as the demangler counts them: each
    /// enclosing generic context (a protocol's `Self`), then the function's own.
    func genericLevels(decl: FunctionDeclSyntax, context: DeclContext) -> [[String]] {
        var levels: [[String]] = []
        for owner in context.owners {
            var names: [String]
            if owner.kind == .extension {
                let info = typeInfo(owner.qualifiedName)
                names = info?.kind == .protocol ? ["Self"] : info?.genericParameterList ?? []
            } else if owner.kind == .protocol {
                names = ["Self"]
            } else {
                names = owner.genericParameters?.parameters.map(\.name.text) ?? []
            }
            if !names.isEmpty { levels.append(names) }
        }
        // Opaque parameters (`some P`) are generic parameters too, after the declared ones.
        let opaque = OpaqueTypes(viewMode: .sourceAccurate)
        for parameter in decl.signature.parameterClause.parameters { opaque.walk(parameter.type) }
        let own = (decl.genericParameterClause?.parameters.map(\.name.text) ?? []) + opaque.found
        if !own.isEmpty { levels.append(own) }
        return levels
    }

    /// The closure type of a parameter: the compiler's resolved type where there is one (with
    /// the attributes written in the source: `@escaping` and the alias's name), else the
    /// written type with the aliases of the sources expanded.
    func closureType(_ parameter: Parameter) -> ClosureType? {
        let written = ClosureType(parameter.type, aliases: alias)
        guard let resolvedType = parameter.resolvedType, var closure = ClosureType(resolvedType, aliases: { _ in nil })
        else { return written }
        if let written {
            closure.attributes = written.attributes + closure.attributes.filter { !written.attributes.contains($0) }
            closure.isOptional = closure.isOptional || written.isOptional
            closure.alias = written.alias
            if written.parameterNames.count == closure.parameterNames.count {
                closure.parameterNames = written.parameterNames
            }
        } else if let attributed = parameter.type.as(AttributedTypeSyntax.self) {
            // A nested alias the syntax could not expand (`@escaping CompletionHandler`).
            for case .attribute(let attribute) in attributed.attributes
            where !closure.attributes.contains(text(attribute)) {
                closure.attributes.insert(text(attribute), at: 0)
            }
            closure.alias = attributed.baseType.as(IdentifierTypeSyntax.self)?.name.text
        }
        return closure
    }

    /// The compiler's names of the types conforming to (or inheriting from) the type named
    /// `name`, nil when the index does not know it.
    func compilerConformingTypes(to name: String) -> [String]? {
        guard let compiler else { return nil }
        let symbols = compiler.types(named: name).filter { $0.kind == .protocol || $0.kind == .class }
        guard !symbols.isEmpty else { return nil }
        return symbols.flatMap { compiler.conformingTypes(toUSR: $0.usr) }.map { typeInfo($0.name)?.name ?? $0.name }
    }

    /// The compiler's names of the protocols and superclasses of the type named `name`, nil
    /// when the index does not know it (each name's answer kept: the checks ask it often).
    func compilerConformances(of name: String) -> [String]? {
        guard let compiler else { return nil }
        if let known = conformanceAnswers[name] { return known }
        let symbols = compiler.types(named: name)
        let answer = symbols.isEmpty ? nil : symbols.flatMap { compiler.conformances(ofUSR: $0.usr) }.map(\.name)
        conformanceAnswers[name] = .some(answer)
        return answer
    }

    /// `Base.refresh(completion:)`: the class method of the module that the method declared at
    /// `file:line` overrides, as the compiler recorded it; nil without an index, or for a
    /// method that overrides none of the module's (a protocol's requirement is no override).
    func overriddenMethod(file: String, line: Int) -> String? {
        guard let compiler, let declaration = compiler.declaration(file: file, line: line) else { return nil }
        for method in compiler.overridden(byUSR: declaration.symbol.usr) {
            let owners = compiler.definitionRelations(of: method.usr, .childOf)
            guard let owner = owners.first, owner.kind == .class else { continue }
            return owner.name + "." + method.name
        }
        return nil
    }
}

/// The opaque types (`some P`) of a parameter, in order.
private final class OpaqueTypes: SyntaxVisitor {
    var found: [String] = []

    override func visit(_ node: SomeOrAnyTypeSyntax) -> SyntaxVisitorContinueKind {
        guard node.someOrAnySpecifier.tokenKind == .keyword(.some) else { return .visitChildren }
        found.append(node.trimmedDescription)
        return .skipChildren
    }
}
