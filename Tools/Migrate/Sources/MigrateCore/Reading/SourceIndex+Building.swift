import SwiftSyntax

/// Building the index: the declarations of the sources, then of the interfaces.
extension SourceIndex {
    func add(_ file: SourceFileSyntax, isInterface: Bool = false) {
        var walker = DeclarationWalker()
        walker.onImport = { [self] node, _ in
            if !isInterface { importedModules.insert(text(node.path)) }
        }
        walker.onOwner = { [self] decl, owner, context in
            if isInterface, owner.kind != .extension, types[owner.qualifiedName] != nil { return }
            if owner.kind == .extension {
                if isSendableUnavailable(decl) {
                    pendingNotSendable.insert(owner.qualifiedName)
                } else {
                    extensionConformances[owner.qualifiedName, default: []] += owner.inherited
                }
                return
            }
            let info = types[owner.qualifiedName] ?? TypeInfo(name: owner.qualifiedName, kind: owner.kind)
            info.isFromInterface = isInterface
            info.kind = owner.kind
            info.access = Access(modifiers: owner.modifiers) ?? .internal
            info.inherited += owner.inherited
            info.availability = owner.attributes.compactMap(Self.availability)
            info.conditions = context.conditions.map(\.text)
            for element in owner.attributes {
                guard case .attribute(let attribute) = element else { continue }
                let name = text(attribute.attributeName)
                if name == "globalActor" { info.isGlobalActor = true }
                if name == "_spi" { info.spi = text(attribute) }
            }
            info.globalActor = globalActorAttribute(owner.attributes)
            info.conformsNonisolating = owner.inherited.contains {
                Self.nonisolatingConformances.contains(Self.lastComponent($0))
            }
            if !isInterface { pendingDefaultIsolation.append((info, decl)) }
            if let clause = owner.genericParameters {
                for parameter in clause.parameters {
                    info.genericParameters[parameter.name.text] = parameter.inheritedType.map { [text($0)] } ?? []
                    info.genericParameterList.append(parameter.name.text)
                }
            }
            if !owner.qualifiedName.contains(".") { topLevelTypes.insert(owner.qualifiedName) }
            if let whereClause = owner.whereClause {
                for (name, constraint) in Self.requirements(whereClause) {
                    info.genericParameters[name, default: []].append(constraint)
                }
            }
            types[owner.qualifiedName] = info
            if typesBySimpleName[Self.lastComponent(owner.qualifiedName)] == nil {
                typesBySimpleName[Self.lastComponent(owner.qualifiedName)] = info
            }
        }
        walker.onTypeAlias = { [self] node, _ in
            if let clause = node.genericParameterClause {
                genericAliasDeclarations[node.name.text] = (
                    clause.parameters.map(\.name.text), node.initializer.value
                )
            } else {
                aliases[node.name.text] = node.initializer.value
            }
        }
        walker.onAssociatedType = { [self] node, context in
            guard let owner = context.ownerName else { return }
            let info = types[owner] ?? TypeInfo(name: owner, kind: .protocol)
            info.associatedTypes[node.name.text] = node.inheritanceClause?.inheritedTypes.map { text($0.type) } ?? []
            types[owner] = info
        }
        walker.onFunction = { [self] node, context in
            let owner = context.ownerName ?? ""
            let parameters = Parameter.list(node.signature.parameterClause)
            let key = FunctionKey(owner: owner, name: node.name.text, labels: parameters.map(\.label))
            let isStatic = node.modifiers.contains {
                $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
            }
            let returnType = node.signature.returnClause.map { text($0.type) }
            let isolation = MethodIsolation(
                isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil,
                isNonisolated: node.modifiers.contains { $0.name.tokenKind == .keyword(.nonisolated) },
                globalActor: globalActorAttribute(node.attributes)
                    ?? context.owner.flatMap { $0.kind == .extension ? globalActorAttribute($0.attributes) : nil }
                    ?? defaultActor(at: node))
            var entry = FunctionEntry(
                labels: parameters.map(\.label),
                defaulted: parameters.map(\.hasDefault),
                isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil,
                isStatic: isStatic,
                parameterTypes: parameters.map { text($0.type) },
                hasHandler: parameters.last.map { ClosureType($0.type, aliases: { _ in nil })?.returnsVoid ?? false }
                    ?? false,
                returnsStream: returnType.map(Self.namesStream) ?? false,
                returnsValue: node.signature.returnClause.map { !TypeText.isVoid($0.type) } ?? false,
                isolation: isolation, name: node.name.text, calls: node.body.map(CalledNames.names) ?? [],
                parameters: parameters, access: Access(modifiers: node.modifiers) ?? .internal,
                summary: documentationLines(node).prefix { !$0.trimmingCharacters().isEmpty }.joined(separator: " ")
                    .lowercased(), returnType: returnType)
            entry.visibleAccess = Self.declaredAccess(node, context)
            functions[key, default: []].append(entry)
            functionsByOwner[owner, default: []].append(entry)
            if entry.isAsync, parameters.isEmpty, !isStatic, !owner.isEmpty {
                awaitableTypes.insert(Self.lastComponent(owner))
            }
            functionsByName[owner + "|" + node.name.text, default: []].append(entry)
            // A cancel method the generated files cannot call is none (PostgresNIO's internal
            // `cancel()` beside the public `stop()`).
            guard parameters.isEmpty, !isStatic, !owner.isEmpty,
                Self.declaredAccess(node, context) >= lowestCallableAccess
            else { return }
            let method = CancelMethod(name: node.name.text, returnsValue: entry.returnsValue, isolation: isolation)
            pendingNoArgumentMethods[owner, default: []].append(method)
            if let rank = CancelMethod.rank(method.name),
                pendingCancel[owner].flatMap({ CancelMethod.rank($0.name) }).map({ rank < $0 }) ?? true
            {
                pendingCancel[owner] = method
            }
        }
        walker.onVariable = { [self] node, context in
            guard let owner = context.ownerName else { return }
            let isStatic = node.modifiers.contains {
                $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
            }
            let access =
                Access(modifiers: node.modifiers)
                ?? context.owner.flatMap { $0.kind == .extension ? Access(modifiers: $0.modifiers) : nil } ?? .internal
            for binding in node.bindings {
                var hasEffects = false
                if case .accessors(let accessors) = binding.accessorBlock?.accessors {
                    if accessors.contains(where: { $0.effectSpecifiers?.asyncSpecifier != nil }) {
                        awaitableTypes.insert(Self.lastComponent(owner))
                    }
                    hasEffects = accessors.contains { $0.effectSpecifiers != nil }
                }
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                // A property whose type is inferred is known by name only: enough to see a clash.
                pendingProperties[owner, default: [:]][name] = binding.typeAnnotation?.type
                propertyNames[owner + "|" + name] = true
                if !isStatic, !hasEffects, let type = binding.typeAnnotation?.type {
                    readableProperties[owner, default: [:]][name] = (type, access)
                }
            }
        }
        walker.onEnumCase = { [self] node, context in
            // Not a case only some builds declare (`#if DEBUG` inside the enum).
            guard let owner = context.ownerName, let info = types[owner], info.kind == .enum,
                context.memberConditions.isEmpty
            else { return }
            info.cases += node.elements.map(\.name.text)
        }
        walker.walk(file)
    }

    /// A member's access as declared: its modifier, or its extension's, or its protocol's.
    static func declaredAccess(_ node: FunctionDeclSyntax, _ context: DeclContext) -> Access {
        if let own = Access(modifiers: node.modifiers) { return own }
        guard let owner = context.owner, owner.kind == .extension || owner.kind == .protocol else { return .internal }
        return Access(modifiers: owner.modifiers) ?? .internal
    }

    /// `AsyncStream<T>`, `StreamOf<T>`, `some AsyncSequence<T, E>`: a type that streams values.
    static func namesStream(_ spelled: String) -> Bool {
        // The type's own name, not its arguments: `AnyPublisher<ChatStreamResult, Error>` is no stream.
        let base = spelled.prefix { $0 != "<" }
        return base.contains("Stream") || base.contains("AsyncSequence")
    }

    func isSendableUnavailable(_ decl: DeclSyntax) -> Bool {
        guard let ext = decl.as(ExtensionDeclSyntax.self),
            let inherited = ext.inheritanceClause?.inheritedTypes,
            inherited.contains(where: { text($0.type) == "Sendable" })
        else { return false }
        return ext.attributes.contains { element in
            guard case .attribute(let attribute) = element, text(attribute.attributeName) == "available" else {
                return false
            }
            return text(attribute).contains("unavailable")
        }
    }
}

/// The base names of the functions a body calls (`onURLRequestCreation` in
/// `onURLRequestCreation(on: queue) { continuation.yield($0) }`).
final class CalledNames: SyntaxVisitor {
    private var names: Set<String> = []

    static func names(_ body: CodeBlockSyntax) -> Set<String> {
        let visitor = CalledNames(viewMode: .sourceAccurate)
        visitor.walk(body)
        return visitor.names
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        // `DecodableResponseSerializer<Value>(…)`: the type's name.
        let called = node.calledExpression.as(GenericSpecializationExprSyntax.self)?.expression ?? node.calledExpression
        if let reference = called.as(DeclReferenceExprSyntax.self) {
            names.insert(reference.baseName.text)
        } else if let member = called.as(MemberAccessExprSyntax.self) {
            names.insert(member.declName.baseName.text)
        }
        return .visitChildren
    }
}
