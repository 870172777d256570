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
        /// Known from a symbol graph (another module), not from the sources.
        var isFromInterface = false
        var inherited: [String] = []
        var globalActor: String?
        var isGlobalActor = false
        var explicitlyNotSendable = false
        var genericParameters: [String: [String]] = [:]
        var associatedTypes: [String: [String]] = [:]
        /// The generic parameters in declaration order (to substitute arguments).
        var genericParameterList: [String] = []
        /// Stored and computed properties, by name, with their declared types.
        var properties: [String: TypeSyntax] = [:]
        /// The method that stops what an instance stands for (`cancel()`, `invalidate()`...).
        var cancelMethod: CancelMethod?
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
        var labels: [String?]
        /// For each parameter, whether it has a default value (a call may leave it out).
        var defaulted: [Bool]
        var isAsync: Bool
        var isStatic: Bool
        var parameterTypes: [String]
        var hasHandler: Bool
        /// Returns an `AsyncSequence` (a type named `…Stream`, `…Sequence`, `StreamOf`).
        var returnsStream: Bool
        /// Returns something (not `Void`).
        var returnsValue: Bool
        /// Whether a closure that is not isolated can call it synchronously.
        var isolation = MethodIsolation()
    }

    /// What a method's declaration says about calling it synchronously from a closure that
    /// is not isolated (a stream's `onTermination`, a promise's cancel handler).
    struct MethodIsolation: Equatable {
        var isAsync = false
        var isNonisolated = false
        /// The global actor of the method, or of the extension that declares it (`@MainActor`).
        var globalActor: String?
    }

    /// Why a closure that is not isolated cannot call a method synchronously.
    enum CallIsolation: Equatable {
        case async
        /// Isolated to this global actor (`@MainActor`).
        case globalActor(String)
        /// Isolated to this actor type.
        case actor(String)

        /// `method` (a `Type.method()` spelling) and why `closure` cannot call it.
        func explained(_ method: String, from closure: String) -> String {
            switch self {
            case .async: return "`\(method)` is async, and \(closure) cannot await it"
            case .globalActor(let actor): return "`\(method)` is isolated to `\(actor)`, and \(closure) is not"
            case .actor(let name): return "`\(method)` is isolated to the actor `\(name)`, and \(closure) is not"
            }
        }

        /// For the report: `async`, `isolated to @MainActor`.
        var short: String {
            switch self {
            case .async: return "async"
            case .globalActor(let actor): return "isolated to `\(actor)`"
            case .actor(let name): return "isolated to the actor `\(name)`"
            }
        }
    }

    /// A method with no arguments that stops the operation an instance stands for.
    struct CancelMethod: Equatable {
        var name: String
        /// It returns something (`cancel() -> Self`): the call discards it.
        var returnsValue: Bool
        var isolation = MethodIsolation()

        /// The names this tool takes as stopping an operation, by preference.
        static let names = ["cancel", "invalidate", "stop"]
    }

    private(set) var types: [String: TypeInfo] = [:]
    private var typesBySimpleName: [String: TypeInfo] = [:]
    private(set) var functions: [FunctionKey: [FunctionEntry]] = [:]
    /// The same, by owner and base name.
    private var functionsByName: [String: [FunctionEntry]] = [:]
    private var aliases: [String: TypeSyntax] = [:]
    private var genericAliasDeclarations: [String: (parameters: [String], type: TypeSyntax)] = [:]
    /// Types declared at file scope (not nested), by name.
    private var topLevelTypes: Set<String> = []
    /// Extended types (by simple name) with their extensions' conformances and attributes.
    private var extensionConformances: [String: [String]] = [:]
    private var pendingNotSendable: Set<String> = []
    private var pendingCancel: [String: CancelMethod] = [:]
    private var pendingProperties: [String: [String: TypeSyntax?]] = [:]
    /// `Owner|name` of every property.
    private var propertyNames: [String: Bool] = [:]

    /// Indexes `files`, then `interfaces` (other modules' declarations, from their symbol
    /// graphs or their sources), which add only the types the files do not declare.
    init(files: [SourceFileSyntax], interfaces: [SourceFileSyntax] = []) {
        for file in files { add(file) }
        for interface in interfaces { add(interface, isInterface: true) }
        for (name, conformances) in extensionConformances {
            typeInfo(name)?.inherited += conformances
        }
        for name in pendingNotSendable { typeInfo(name)?.explicitlyNotSendable = true }
        for (name, method) in pendingCancel { typeInfo(name)?.cancelMethod = method }
        for (name, properties) in pendingProperties {
            typeInfo(name)?.properties.merge(properties.compactMapValues { $0 }) { first, _ in first }
        }
    }

    private func add(_ file: SourceFileSyntax, isInterface: Bool = false) {
        var walker = DeclarationWalker()
        walker.onOwner = { [self] decl, owner, _ in
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
            for element in owner.attributes {
                guard case .attribute(let attribute) = element else { continue }
                let name = text(attribute.attributeName)
                if name == "globalActor" { info.isGlobalActor = true }
            }
            info.globalActor = globalActorAttribute(owner.attributes)
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
                    ?? context.owner.flatMap { $0.kind == .extension ? globalActorAttribute($0.attributes) : nil })
            let entry = FunctionEntry(
                labels: parameters.map(\.label),
                defaulted: parameters.map(\.hasDefault),
                isAsync: node.signature.effectSpecifiers?.asyncSpecifier != nil,
                isStatic: isStatic,
                parameterTypes: parameters.map { text($0.type) },
                hasHandler: parameters.last.map { ClosureType($0.type, aliases: { _ in nil })?.returnsVoid ?? false }
                    ?? false,
                returnsStream: returnType.map(Self.namesStream) ?? false,
                returnsValue: node.signature.returnClause.map { !TypeText.isVoid($0.type) } ?? false,
                isolation: isolation)
            functions[key, default: []].append(entry)
            functionsByName[owner + "|" + node.name.text, default: []].append(entry)
            if CancelMethod.names.contains(node.name.text), parameters.isEmpty, !isStatic, !owner.isEmpty {
                let method = CancelMethod(
                    name: node.name.text, returnsValue: entry.returnsValue, isolation: isolation)
                if let existing = pendingCancel[owner],
                    CancelMethod.names.firstIndex(of: existing.name)! <= CancelMethod.names.firstIndex(of: method.name)!
                {
                } else {
                    pendingCancel[owner] = method
                }
            }
        }
        walker.onVariable = { [self] node, context in
            guard let owner = context.ownerName else { return }
            for binding in node.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                // A property whose type is inferred is known by name only: enough to see a clash.
                pendingProperties[owner, default: [:]][name] = binding.typeAnnotation?.type
                propertyNames[owner + "|" + name] = true
            }
        }
        walker.walk(file)
    }

    /// `AsyncStream<T>`, `StreamOf<T>`, `some AsyncSequence<T, E>`: a type that streams values.
    static func namesStream(_ spelled: String) -> Bool {
        spelled.contains("Stream") || spelled.contains("AsyncSequence")
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

    /// What a type alias of the sources stands for: `Completion` (plain) or
    /// `Handler<Int>` (generic, its arguments substituted).
    func alias(_ identifier: IdentifierTypeSyntax) -> TypeSyntax? {
        guard let clause = identifier.genericArgumentClause else { return aliases[identifier.name.text] }
        guard let alias = genericAliasDeclarations[identifier.name.text] else { return nil }
        let arguments = clause.arguments.map { text($0.with(\.trailingComma, nil)) }
        return TypeText.substituted(alias.type, Dictionary(zip(alias.parameters, arguments)) { first, _ in first })
    }

    /// Whether `Result` names a type of these sources rather than Swift's in code inside
    /// `owner`: a file-scope `Result`, or one nested in `owner` or in a type enclosing it.
    /// A `Result` nested elsewhere (`PathMonitor.Result`) changes nothing outside its type.
    func shadowsResult(in owner: String?) -> Bool {
        if topLevelTypes.contains("Result") { return true }
        guard var scope = owner else { return false }
        while true {
            if types[scope + ".Result"] != nil { return true }
            guard let dot = scope.lastIndex(of: ".") else { return false }
            scope = String(scope[..<dot])
        }
    }

    /// Every function named `name` under `owner`, whatever its labels.
    func entries(owner: String, name: String) -> [FunctionEntry] {
        functionsByName[owner + "|" + name] ?? []
    }

    /// Whether `owner` declares a property named `name`.
    func hasProperty(owner: String, name: String) -> Bool {
        propertyNames[owner + "|" + name] ?? false
    }

    /// `owner` and every type it conforms to or inherits from, as far as the sources tell.
    func selfAndSupertypes(_ owner: String?) -> [String] {
        guard let owner, !owner.isEmpty else { return [""] }
        return [owner] + allConformances(of: owner)
    }

    /// A type spelled with a type alias of the sources, expanded (a generic alias with
    /// its arguments substituted).
    func expand(_ type: TypeSyntax) -> TypeSyntax {
        var current = TypeText.unparenthesized(type)
        for _ in 0..<8 {
            guard let identifier = current.as(IdentifierTypeSyntax.self) else { break }
            guard let aliased = alias(identifier) else { break }
            current = TypeText.unparenthesized(aliased)
        }
        return current
    }

    /// How a handler's value reports a failure of its own.
    enum CarriedError {
        /// The value has `result: Result<Success, Failure>` (Alamofire's `DataResponse`).
        case resultMember(success: TypeSyntax, failure: TypeSyntax)
        /// The value has `error: Error?`, set when the operation failed.
        case errorMember
    }

    /// Whether values of `type` (a type of the sources) carry the operation's error.
    func carriedError(in type: TypeSyntax) -> CarriedError? {
        // Only the module's own response types: another module's `error` property (a
        // `URLSessionTask`'s) is not the operation's failure.
        guard let (name, arguments) = TypeText.nominal(expand(type)), let info = typeInfo(name), !info.isFromInterface,
            info.kind == .struct || info.kind == .class || info.kind == .enum
        else { return nil }
        var map: [String: String] = [:]
        for (parameter, argument) in zip(info.genericParameterList, arguments) { map[parameter] = text(argument) }
        if let result = info.properties["result"], let (success, failure) = TypeText.resultArguments(result),
            !shadowsResult(in: info.name)
        {
            return .resultMember(
                success: TypeText.substituted(success, map), failure: TypeText.substituted(failure, map))
        }
        if let error = info.properties["error"], TypeText.isOptionalError(error) { return .errorMember }
        return nil
    }

    // MARK: - Hooks

    /// Protocols the library calls rather than its users: a completion handler in one
    /// of their requirements is for the conforming type to call.
    static let hookSuffixes = [
        "Delegate", "DataSource", "Adapter", "Retrier", "Interceptor", "Handler", "Strategy", "Policy", "Hook",
        "Monitor", "Observer",
    ]

    /// The hook protocol (by the names above) that declares `name(labels)` for `owner`, if any.
    func hookRequirement(owner: String?, name: String, labels: [String?]) -> String? {
        for candidate in selfAndSupertypes(owner) where !candidate.isEmpty {
            let simple = Self.lastComponent(candidate)
            guard typeInfo(simple)?.kind == .protocol, Self.hookSuffixes.contains(where: simple.hasSuffix),
                !entries(owner: typeInfo(simple)!.name, name: name, labels: labels).isEmpty
            else { continue }
            return simple
        }
        return nil
    }

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
        "UnsafePointer", "OpaquePointer", "Any", "AnyObject", "NSObject",
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
        // `Reducer.Value`: the caller requires it to be `Sendable`, like a generic parameter.
        let dependent = Set(
            TypeText.genericMembers(type, generics: generics).compactMap {
                $0.split(separator: ".").last.map(String.init)
            }
        )
        for name in TypeText.mentionedNames(type) where !generics.contains(name) && !dependent.contains(name) {
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

    /// Why a closure that is not isolated cannot call `method` of `owner` synchronously: the
    /// method is async, or isolated to an actor (its own global actor, the actor `owner` is,
    /// or the global actor of `owner` or of a type it inherits from). nil when it can.
    /// (Such a type is `Sendable`, yet its methods are not callable from any thread.)
    func callIsolation(of method: MethodIsolation, owner: String) -> CallIsolation? {
        if method.isAsync { return .async }
        if method.isNonisolated { return nil }
        if let actor = method.globalActor { return .globalActor(actor) }
        guard let info = typeInfo(owner) else { return nil }
        if info.kind == .actor { return .actor(Self.lastComponent(info.name)) }
        let inherited = allConformances(of: owner).lazy.compactMap { self.typeInfo($0)?.globalActor }.first
        return (info.globalActor ?? inherited).map { .globalActor($0) }
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
        /// A `Sendable` type with `cancel()` (or `invalidate()`, `stop()`).
        case cancellable(String, CancelMethod)
        /// A `DispatchWorkItem` (not `Sendable` on Linux): FutureBridge has an overload.
        case workItem
        /// Has `cancel()`, callable from any thread, but not marked `Sendable` everywhere.
        case uncheckedCancellable(String)
        /// Declared in the sources with `cancel()`, but not `Sendable`.
        case notSendable(String, CancelMethod)
        /// Declared in the sources with `cancel()`, which a closure that is not isolated
        /// cannot call: an actor's, a global actor's, or async.
        case isolated(String, CancelMethod, CallIsolation)
        /// Known (from the sources or a symbol graph) to have no `cancel()`, `invalidate()`
        /// or `stop()`.
        case noCancel(String)
        /// A type this tool knows nothing of: another module's, with no symbol graph.
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
    /// Protocols of the standard library and Foundation that a class may list first.
    static let plainProtocols: Set<String> = [
        "Equatable", "Hashable", "Codable", "Encodable", "Decodable", "Identifiable", "Comparable",
        "CustomStringConvertible", "CustomDebugStringConvertible", "NSObject", "NSObjectProtocol", "NSCoding",
        "NSSecureCoding", "NSCopying",
    ]
    static let plainValues: Set<String> = [
        "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double",
        "Float", "String", "Data", "URL", "Date", "UUID", "Array", "Dictionary", "Set", "Optional",
    ]

    /// What a function's return value is to cancellation. `Self` is the owner: the
    /// method of a request class that returns the request.
    func handle(_ type: TypeSyntax, owner: String?) -> Handle {
        let spelled = text(type)
        guard var name = TypeText.simpleName(type) else { return .value(spelled) }
        if name == "Self", let owner { name = Self.lastComponent(owner) }
        if Self.urlSessionTasks.contains(name) { return .urlSessionTask(name) }
        if name == "DispatchWorkItem" { return .workItem }
        let cancel = CancelMethod(name: "cancel", returnsValue: false)
        if let info = typeInfo(name) {
            // Its own method, or one it inherits from a superclass or a protocol.
            let supertypes = allConformances(of: name)
            if let method = info.cancelMethod ?? supertypes.lazy.compactMap({ self.typeInfo($0)?.cancelMethod }).first {
                if let isolation = callIsolation(of: method.isolation, owner: name) {
                    return .isolated(name, method, isolation)
                }
                return isSendable(info) ? .cancellable(name, method) : .notSendable(name, method)
            }
            // A subclass of a known handle: `class UploadTask: URLSessionUploadTask`.
            if supertypes.contains(where: Self.urlSessionTasks.contains) { return .urlSessionTask(name) }
            if supertypes.contains(where: Self.sendableCancellables.contains) { return .cancellable(name, cancel) }
            if supertypes.contains(where: Self.uncheckedCancellables.contains) { return .uncheckedCancellable(name) }
            // A class whose superclass this tool knows nothing of may inherit a cancel().
            if info.kind == .class, let superclass = info.inherited.first.map(Self.lastComponent),
                typeInfo(superclass) == nil, !Self.sendableProtocols.contains(superclass),
                !Self.plainProtocols.contains(superclass)
            {
                return .unknown(superclass)
            }
            return .noCancel(name)
        }
        if Self.sendableCancellables.contains(name) { return .cancellable(name, cancel) }
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
