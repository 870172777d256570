import SwiftSyntax

/// Whether a type is `Sendable`, and whether a method can be called from a closure that is not isolated.
extension SourceIndex {
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

    func conformsToSendable(_ info: TypeInfo, visited: Set<String>) -> Bool {
        for inherited in info.inherited {
            let name = Self.lastComponent(inherited.replacingOccurrences(of: "@unchecked ", with: ""))
            if Self.sendableProtocols.contains(name) { return true }
            guard !visited.contains(name), let other = typeInfo(name) else { continue }
            if other.kind == .protocol, refinesSendable(other, visited: visited.union([info.name])) { return true }
            if other.kind == .class, other.globalActor != nil { return true }
        }
        return false
    }

    func refinesSendable(_ info: TypeInfo, visited: Set<String>) -> Bool {
        if info.globalActor != nil { return true }
        for inherited in info.inherited {
            let name = Self.lastComponent(inherited)
            if Self.sendableProtocols.contains(name) { return true }
            guard !visited.contains(name), let other = typeInfo(name), other.kind == .protocol else { continue }
            if refinesSendable(other, visited: visited.union([info.name])) { return true }
        }
        return false
    }

}
