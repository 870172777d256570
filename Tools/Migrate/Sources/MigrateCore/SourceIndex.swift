import Foundation
import SwiftSyntax

/// What the scanned sources say about their types: enough to tell, without a type
/// checker, whether a value is `Sendable`, whether a returned handle has `cancel()`,
/// whether code runs on an actor, and which functions already exist.
final class SourceIndex {
    final class TypeInfo {
        var name: String
        var kind: Owner.Kind
        var access: Access = .internal
        var inherited: [String] = []
        var globalActor: String?
        var isGlobalActor = false
        var explicitlyNotSendable = false
        var genericParameters: [String: [String]] = [:]
        var associatedTypes: [String: [String]] = [:]
        var hasCancel = false
        var availability: [String] = []

        init(name: String, kind: Owner.Kind) {
            self.name = name
            self.kind = kind
        }
    }

    /// A function as the sibling checks see it.
    struct FunctionKey: Hashable {
        var owner: String
        var name: String
        var labels: [String?]
    }

    struct FunctionEntry {
        var isAsync: Bool
        var parameterTypes: [String]
        var hasHandler: Bool
    }

    private(set) var types: [String: TypeInfo] = [:]
    private var typesBySimpleName: [String: TypeInfo] = [:]
    private(set) var functions: [FunctionKey: [FunctionEntry]] = [:]
    private var aliases: [String: TypeSyntax] = [:]
    private(set) var genericAliases: Set<String> = []
    /// Extended types (by simple name) with their extensions' conformances and attributes.
    private var extensionConformances: [String: [String]] = [:]
    private var pendingNotSendable: Set<String> = []
    private var pendingCancel: Set<String> = []

    init(files: [SourceFileSyntax]) {
        for file in files { add(file) }
        for (name, conformances) in extensionConformances {
            typeInfo(name)?.inherited += conformances
        }
        for name in pendingNotSendable { typeInfo(name)?.explicitlyNotSendable = true }
        for name in pendingCancel { typeInfo(name)?.hasCancel = true }
    }

    private func add(_ file: SourceFileSyntax) {
        var walker = DeclarationWalker()
        walker.onOwner = { [self] decl, owner, _ in
            if owner.kind == .extension {
                if isSendableUnavailable(decl) {
                    pendingNotSendable.insert(owner.qualifiedName)
                } else {
                    extensionConformances[owner.qualifiedName, default: []] += owner.inherited
                }
                return
            }
            let info = types[owner.qualifiedName] ?? TypeInfo(name: owner.qualifiedName, kind: owner.kind)
            info.kind = owner.kind
            info.access = Access(modifiers: owner.modifiers) ?? .internal
            info.inherited += owner.inherited
            info.availability = owner.attributes.compactMap(Self.availability)
            for element in owner.attributes {
                guard case .attribute(let attribute) = element else { continue }
                let name = text(attribute.attributeName)
                if name == "globalActor" { info.isGlobalActor = true }
            }
            info.globalActor = globalActorAttribute(owner.attributes)
            if let clause = owner.genericParameters {
                for parameter in clause.parameters {
                    info.genericParameters[parameter.name.text] = parameter.inheritedType.map { [text($0)] } ?? []
                }
            }
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
            if node.genericParameterClause != nil {
                genericAliases.insert(node.name.text)
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
            let entry = FunctionEntry(
                isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil,
                parameterTypes: parameters.map { text($0.type) },
                hasHandler: parameters.last.map { ClosureType($0.type, aliases: { _ in nil })?.returnsVoid ?? false }
                    ?? false)
            functions[key, default: []].append(entry)
            let isStatic = node.modifiers.contains { $0.name.tokenKind == .keyword(.static) }
            if node.name.text == "cancel", parameters.isEmpty, !isStatic, !owner.isEmpty {
                pendingCancel.insert(owner)
            }
        }
        walker.walk(file)
    }

    private func isSendableUnavailable(_ decl: DeclSyntax) -> Bool {
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

    // MARK: - Queries

    func typeInfo(_ name: String) -> TypeInfo? {
        types[name] ?? typesBySimpleName[Self.lastComponent(name)]
    }

    func alias(_ name: String) -> TypeSyntax? { aliases[name] }

    /// Whether the sources declare a type of this name (such as their own `Result`).
    func declares(_ simpleName: String) -> Bool { typesBySimpleName[simpleName] != nil }

    /// The global-actor attribute among `attributes` (`@MainActor`), if any.
    func globalActorAttribute(_ attributes: AttributeListSyntax) -> String? {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = text(attribute.attributeName)
            if name == "MainActor" || name.hasSuffix("Actor") || isDeclaredGlobalActor(name) {
                return text(attribute)
            }
        }
        return nil
    }

    private func isDeclaredGlobalActor(_ name: String) -> Bool {
        typeInfo(name)?.isGlobalActor ?? false
    }

    /// Every protocol a type conforms to, directly or through other protocols and
    /// superclasses declared in the sources.
    func allConformances(of name: String) -> [String] {
        var seen: [String] = []
        var queue = typeInfo(name)?.inherited ?? []
        while let next = queue.first {
            queue.removeFirst()
            let simple = Self.lastComponent(next)
            guard !seen.contains(simple) else { continue }
            seen.append(simple)
            queue += typeInfo(simple)?.inherited ?? []
        }
        return seen
    }

    /// The functions declared under `owner` with this name and these labels.
    func entries(owner: String, name: String, labels: [String?]) -> [FunctionEntry] {
        functions[FunctionKey(owner: owner, name: name, labels: labels)] ?? []
    }

    // MARK: - Sendable

    enum Sendability: Equatable {
        case sendable
        /// Not `Sendable`, because of the named type.
        case notSendable(String)
    }

    /// Types from outside the sources that are known not to be `Sendable`.
    static let knownNotSendable: Set<String> = [
        "NSManagedObject", "NSManagedObjectContext", "NSMutableString", "NSMutableData", "NSMutableArray",
        "NSMutableDictionary", "NSMutableSet", "NSMutableAttributedString", "UIView", "UIViewController",
        "NSView", "NSViewController", "UnsafeMutableRawPointer", "UnsafeMutablePointer", "UnsafeRawPointer",
        "UnsafePointer", "OpaquePointer",
    ]

    /// Protocols from outside the sources that refine `Sendable`.
    static let sendableProtocols: Set<String> = [
        "Sendable", "Error", "LocalizedError", "CustomNSError", "RecoverableError", "CodingKey", "Actor",
        "GlobalActor", "SendableMetatype",
    ]

    /// Whether values of `type` may cross isolation domains, as far as the sources tell.
    /// Generic parameters in `generics` count as `Sendable` (the caller requires it).
    func sendability(of type: TypeSyntax, generics: Set<String>) -> Sendability {
        if TypeText.containsFunctionType(type), !text(type).contains("@Sendable") {
            return .notSendable(text(type))
        }
        for name in TypeText.mentionedNames(type) where !generics.contains(name) {
            if Self.knownNotSendable.contains(name) { return .notSendable(name) }
            if let info = typeInfo(name), !isSendable(info) { return .notSendable(name) }
        }
        return .sendable
    }

    /// Whether a type declared in the sources is `Sendable`.
    func isSendable(_ info: TypeInfo, visited: Set<String> = []) -> Bool {
        if info.explicitlyNotSendable { return false }
        if info.kind == .actor || info.globalActor != nil { return true }
        if info.kind == .protocol {
            return refinesSendable(info, visited: visited)
        }
        if conformsToSendable(info, visited: visited) { return true }
        switch info.kind {
        case .struct, .enum:
            // Swift infers `Sendable` for non-public structs and enums whose stored values
            // are `Sendable`; this tool assumes they are.
            return info.access < .public
        default:
            return false
        }
    }

    private func conformsToSendable(_ info: TypeInfo, visited: Set<String>) -> Bool {
        for inherited in info.inherited {
            let name = Self.lastComponent(inherited.replacingOccurrences(of: "@unchecked ", with: ""))
            if Self.sendableProtocols.contains(name) { return true }
            guard !visited.contains(name), let other = typeInfo(name) else { continue }
            if other.kind == .protocol, refinesSendable(other, visited: visited.union([info.name])) { return true }
            if other.kind == .class, other.globalActor != nil { return true }
        }
        return false
    }

    private func refinesSendable(_ info: TypeInfo, visited: Set<String>) -> Bool {
        if info.globalActor != nil { return true }
        for inherited in info.inherited {
            let name = Self.lastComponent(inherited)
            if Self.sendableProtocols.contains(name) { return true }
            guard !visited.contains(name), let other = typeInfo(name), other.kind == .protocol else { continue }
            if refinesSendable(other, visited: visited.union([info.name])) { return true }
        }
        return false
    }

    // MARK: - Cancel handles

    enum Handle: Equatable {
        /// A `URLSessionTask`: cancel it on request, and resume it (it starts suspended).
        case urlSessionTask(String)
        /// A `Sendable` type with `cancel()`.
        case cancellable(String)
        /// A `DispatchWorkItem` (not `Sendable` on Linux): FutureBridge has an overload.
        case workItem
        /// Has `cancel()`, callable from any thread, but not marked `Sendable` everywhere.
        case uncheckedCancellable(String)
        /// Declared in the sources with `cancel()`, but not `Sendable`.
        case notSendable(String)
        /// Not known to have `cancel()`.
        case unknown(String)
        /// A plain value, not a handle.
        case value(String)
    }

    static let urlSessionTasks: Set<String> = [
        "URLSessionTask", "URLSessionDataTask", "URLSessionDownloadTask", "URLSessionUploadTask",
        "URLSessionStreamTask", "URLSessionWebSocketTask",
    ]
    static let sendableCancellables: Set<String> = [
        "Operation", "BlockOperation", "Progress", "CancellationToken", "Task", "DispatchSourceProtocol",
        "DispatchSourceTimer", "DispatchSourceRead", "DispatchSourceWrite", "DispatchSourceSignal",
        "DispatchSourceProcess", "DispatchSourceFileSystemObject",
    ]
    static let uncheckedCancellables: Set<String> = ["AnyCancellable", "Cancellable"]
    static let plainValues: Set<String> = [
        "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double",
        "Float", "String", "Data", "URL", "Date", "UUID", "Array", "Dictionary", "Set", "Optional",
    ]

    /// What a function's return value is to cancellation.
    func handle(_ type: TypeSyntax) -> Handle {
        let spelled = text(type)
        guard let name = TypeText.simpleName(type) else { return .value(spelled) }
        if Self.urlSessionTasks.contains(name) { return .urlSessionTask(name) }
        if name == "DispatchWorkItem" { return .workItem }
        if let info = typeInfo(name) {
            let hasCancel =
                info.hasCancel
                || allConformances(of: name).contains { typeInfo($0)?.hasCancel ?? false }
            guard hasCancel else { return .unknown(name) }
            return isSendable(info) ? .cancellable(name) : .notSendable(name)
        }
        if Self.sendableCancellables.contains(name) { return .cancellable(name) }
        if Self.uncheckedCancellables.contains(name) { return .uncheckedCancellable(name) }
        if Self.plainValues.contains(name) || type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self)
            || type.is(TupleTypeSyntax.self)
        {
            return .value(spelled)
        }
        return .unknown(name)
    }

    // MARK: - Helpers

    static func lastComponent(_ name: String) -> String {
        let base = name.split(separator: "<").first.map(String.init) ?? name
        return base.split(separator: ".").last.map(String.init) ?? base
    }

    static func availability(_ element: AttributeListSyntax.Element) -> String? {
        guard case .attribute(let attribute) = element, text(attribute.attributeName) == "available" else {
            return nil
        }
        return text(attribute)
    }

    /// `T: Sendable` and `T == U` requirements of a where clause, by subject.
    static func requirements(_ clause: GenericWhereClauseSyntax) -> [(String, String)] {
        clause.requirements.compactMap { requirement in
            switch requirement.requirement {
            case .conformanceRequirement(let conformance):
                return (text(conformance.leftType), text(conformance.rightType))
            default:
                return nil
            }
        }
    }
}
