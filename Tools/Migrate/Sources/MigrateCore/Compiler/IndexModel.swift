/// The roles of a symbol's occurrence, and of its relations (libIndexStore's
/// `indexstore_symbol_role_t` bits).
public struct SymbolRoles: OptionSet, Sendable, Hashable {
    /// The raw bits, as the index store writes them.
    public var rawValue: UInt64
    /// Makes roles from the index store's bits.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// A declaration (a protocol requirement, for instance).
    public static let declaration = SymbolRoles(rawValue: 1 << 0)
    /// A definition.
    public static let definition = SymbolRoles(rawValue: 1 << 1)
    /// A reference (a use of the symbol).
    public static let reference = SymbolRoles(rawValue: 1 << 2)
    /// A read of a property.
    public static let read = SymbolRoles(rawValue: 1 << 3)
    /// A write of a property.
    public static let write = SymbolRoles(rawValue: 1 << 4)
    /// A call of a function.
    public static let call = SymbolRoles(rawValue: 1 << 5)
    /// A dynamically dispatched call (a class method, a protocol requirement).
    public static let dynamic = SymbolRoles(rawValue: 1 << 6)
    /// Written by the compiler, not in the sources.
    public static let implicit = SymbolRoles(rawValue: 1 << 8)
    /// Relation: the occurrence's symbol is a member of the related one.
    public static let childOf = SymbolRoles(rawValue: 1 << 9)
    /// Relation: the symbol is a superclass or protocol of the related one.
    public static let baseOf = SymbolRoles(rawValue: 1 << 10)
    /// Relation: the symbol overrides (or implements the requirement) the related one.
    public static let overrideOf = SymbolRoles(rawValue: 1 << 11)
    /// Relation: a call received by the related type.
    public static let receivedBy = SymbolRoles(rawValue: 1 << 12)
    /// Relation: a call made in the related function.
    public static let calledBy = SymbolRoles(rawValue: 1 << 13)
    /// Relation: the symbol is extended by the related extension.
    public static let extendedBy = SymbolRoles(rawValue: 1 << 14)
    /// Relation: an accessor of the related property.
    public static let accessorOf = SymbolRoles(rawValue: 1 << 15)
    /// Relation: the occurrence is inside the related declaration.
    public static let containedBy = SymbolRoles(rawValue: 1 << 16)
}

/// What kind of declaration a symbol is (libIndexStore's `indexstore_symbol_kind_t`).
public enum SymbolKind: Sendable, Hashable {
    /// A module, a type (`protocol` included), an extension, a type alias (or generic
    /// parameter), a free function or a global variable.
    case module, `enum`, `struct`, `class`, `protocol`, `extension`, `typealias`, function, variable
    /// A method or property, of an instance, a class or a type (`static`).
    case instanceMethod, classMethod, staticMethod, instanceProperty, classProperty, staticProperty
    /// An initializer, a deinitializer, a function's parameter.
    case constructor, destructor, parameter
    /// A kind this tool does not name (the raw value).
    case other(Int)

    /// The kind for the index store's raw value.
    public init(rawValue: Int) {
        let known: [Int: SymbolKind] = [
            1: .module, 5: .enum, 6: .struct, 7: .class, 8: .protocol, 9: .extension, 11: .typealias,
            12: .function, 13: .variable, 16: .instanceMethod, 17: .classMethod, 18: .staticMethod,
            19: .instanceProperty, 20: .classProperty, 21: .staticProperty, 22: .constructor, 23: .destructor,
            25: .parameter,
        ]
        self = known[rawValue] ?? .other(rawValue)
    }

    /// A function, method or initializer.
    public var isCallable: Bool {
        switch self {
        case .function, .instanceMethod, .classMethod, .staticMethod, .constructor: true
        default: false
        }
    }

    /// A nominal type (a protocol included).
    public var isType: Bool {
        switch self {
        case .enum, .struct, .class, .protocol: true
        default: false
        }
    }
}

/// A declaration the index knows: its unique identifier, name and kind.
public struct IndexSymbol: Sendable, Hashable {
    /// The Unified Symbol Resolution: `s:` and the Swift mangling of the declaration.
    public var usr: String
    /// The name as the index store writes it (`load(_:completion:)`, `Client`).
    public var name: String
    /// What kind of declaration it is.
    public var kind: SymbolKind

    /// Makes a symbol.
    public init(usr: String, name: String, kind: SymbolKind) {
        self.usr = usr
        self.name = name
        self.kind = kind
    }
}

/// A relation of an occurrence with another symbol (the type a member belongs to, the
/// function a call is made in, the method a method overrides...).
public struct IndexRelation: Sendable, Hashable {
    /// How the occurrence's symbol relates to `symbol` (only relation roles).
    public var roles: SymbolRoles
    /// The related symbol.
    public var symbol: IndexSymbol
}

/// A place in a source file where a symbol is declared, defined or used.
public struct IndexOccurrence: Sendable, Hashable {
    /// The symbol declared, defined or used there.
    public var symbol: IndexSymbol
    /// What the occurrence does (defines, references, calls...).
    public var roles: SymbolRoles
    /// The source file's path, as the compiler was given it (absolute for SwiftPM).
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column (in UTF-8 bytes), from 1.
    public var column: Int
    /// The occurrence's relations with other symbols.
    public var relations: [IndexRelation]

    /// The symbols related by one of `roles`.
    public func related(_ roles: SymbolRoles) -> [IndexSymbol] {
        relations.filter { !$0.roles.isDisjoint(with: roles) }.map(\.symbol)
    }
}
