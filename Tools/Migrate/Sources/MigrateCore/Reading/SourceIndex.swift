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
        /// Conforms to `Error` or `CodingKey` in its own declaration: the module's default
        /// isolation leaves it nonisolated.
        var conformsNonisolating = false
        var genericParameters: [String: [String]] = [:]
        var associatedTypes: [String: [String]] = [:]
        /// The generic parameters in declaration order (to substitute arguments).
        var genericParameterList: [String] = []
        /// Stored and computed properties, by name, with their declared types.
        var properties: [String: TypeSyntax] = [:]
        /// An enum's cases, by name, in declaration order.
        var cases: [String] = []
        /// The `#if` conditions its declaration is under (`canImport(Darwin)`): code that names
        /// it compiles only where they hold.
        var conditions: [String] = []
        /// The method that stops what an instance stands for (`cancel()`, `invalidate()`...).
        var cancelMethod: CancelMethod?
        var availability: [String] = []
        /// `@_spi(Name)`: the type is not public API (code outside the module sees it only
        /// through `@_spi(Name) import`).
        var spi: String?

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
        /// The function's base name.
        var name = ""
        /// The base names of the functions its body calls.
        var calls: Set<String> = []
        /// The parameters, and the declared access (`internal` when not written).
        var parameters: [Parameter] = []
        var access: Access = .internal
        /// The access it has, with its extension's or protocol's where it writes none (what
        /// decides whether another module can call it).
        var visibleAccess: Access = .public
        /// The first paragraph of its documentation, lowercased.
        var summary = ""
        /// The return type as written, if any.
        var returnType: String?
    }

    /// What a method's declaration says about calling it synchronously from a closure that
    /// is not isolated (a stream's `StreamEnd.onStop`, a promise's cancel handler).
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

        /// The names this tool takes as stopping an operation, by preference; then any
        /// `cancel…()` (`cancelRequest()`), which `rank` puts after them.
        static let names = ["cancel", "invalidate", "stop", "abort", "terminate", "dispose", "unsubscribe"]

        /// The preference of a method named `name` as a cancel method, or nil if the name
        /// does not say it stops anything.
        static func rank(_ name: String) -> Int? {
            if let index = names.firstIndex(of: name) { return index }
            let words = ClosureName.words(name)
            return words.count > 1 && ["cancel", "abort", "terminate"].contains(words[0]) ? names.count : nil
        }

        /// A type named for cancellation (`Cancelable`, `RequestCancellation`, `Disposable`,
        /// `AbortHandle`): its one method with no arguments is what stops the operation.
        static func namesCancellation(_ typeName: String) -> Bool {
            ClosureName.words(typeName).contains {
                $0.hasPrefix("cancel") || $0.hasPrefix("abort") || $0.hasPrefix("dispos") || $0.hasPrefix("terminat")
            }
        }
    }

    var types: [String: TypeInfo] = [:]
    /// The modules the sources import (not the interfaces').
    var importedModules: Set<String> = []
    var typesBySimpleName: [String: TypeInfo] = [:]
    var functions: [FunctionKey: [FunctionEntry]] = [:]
    /// The same, by owner.
    var functionsByOwner: [String: [FunctionEntry]] = [:]
    /// The same, by owner and base name.
    var functionsByName: [String: [FunctionEntry]] = [:]
    var aliases: [String: TypeSyntax] = [:]
    var genericAliasDeclarations: [String: (parameters: [String], type: TypeSyntax)] = [:]
    /// Types declared at file scope (not nested), by name.
    var topLevelTypes: Set<String> = []
    /// Extended types (by simple name) with their extensions' conformances and attributes.
    var extensionConformances: [String: [String]] = [:]
    var pendingNotSendable: Set<String> = []
    var pendingCancel: [String: CancelMethod] = [:]
    /// Every method with no arguments of each type, for types named for cancellation.
    var pendingNoArgumentMethods: [String: [CancelMethod]] = [:]
    var pendingProperties: [String: [String: TypeSyntax?]] = [:]
    /// `--cancel-method`: by the type's simple name.
    var userCancelMethods: [String: CancelMethod] = [:]
    /// Types with an `async` property or an `async` method without arguments (Alamofire's
    /// `DataTask`, whose `value` is awaited): what a function returning one offers is awaited.
    var awaitableTypes: Set<String> = []
    /// The lowest access of a method the generated files can call (`public` with
    /// `--public-only`, whose files are compiled outside the module).
    var lowestCallableAccess: Access = .private
    /// The global actor of the module's declarations that have no isolation of their own
    /// (`--default-isolation MainActor`: `@MainActor`), or nil.
    var defaultIsolation: String?
    /// The module's own files (not the interfaces): the default isolation applies there.
    var moduleRoots: Set<SyntaxIdentifier> = []
    /// The module's type declarations, for the default isolation.
    var pendingDefaultIsolation: [(info: TypeInfo, decl: DeclSyntax)] = []
    /// `Owner|name` of every property.
    var propertyNames: [String: Bool] = [:]
    /// The instance properties a generated file may read (`value.event`), by owner: declared
    /// with a type, not `static`, with no `async` or `throws` getter; and their access.
    var readableProperties: [String: [String: (type: TypeSyntax, access: Access)]] = [:]
    /// What the compiler wrote while building the module, if a build gave it: its answers
    /// come before the syntax's guesses.
    let compiler: CompilerIndex?
    /// By `file:line`, the parameter types the compiler resolved for the function declared
    /// there (empty when it has none that fit).
    var resolvedTypes: [String: [TypeSyntax?]] = [:]
    /// By type name, the compiler's conformances (nil inside: the index does not know it).
    var conformanceAnswers: [String: [String]?] = [:]

    /// Indexes `files`, then `interfaces` (other modules' declarations, from their symbol
    /// graphs or their sources), which add only the types the files do not declare.
    ///
    /// `cancelMethods` (`--cancel-method Type.method`) name a type's cancel method where
    /// its name does not say so.
    ///
    /// `lowestCallableAccess`: a cancel method less visible than this is not one the
    /// generated files can call (`public` with `--public-only`).
    ///
    /// `defaultIsolation`: the global actor of `files`' declarations that have no isolation
    /// of their own (`@MainActor` in a module built with `-default-isolation MainActor`).
    ///
    /// `compiler`: the module's index store, read (``CompilerIndex``).
    init(
        files: [SourceFileSyntax], interfaces: [SourceFileSyntax] = [], cancelMethods: [String] = [],
        lowestCallableAccess: Access = .private, defaultIsolation: String? = nil, compiler: CompilerIndex? = nil
    ) {
        self.compiler = compiler
        self.lowestCallableAccess = lowestCallableAccess
        self.defaultIsolation = defaultIsolation
        moduleRoots = Set(files.map { Syntax($0).id })
        for file in files { add(file) }
        for interface in interfaces { add(interface, isInterface: true) }
        for (name, conformances) in extensionConformances {
            typeInfo(name)?.inherited += conformances
        }
        for name in pendingNotSendable { typeInfo(name)?.explicitlyNotSendable = true }
        applyDefaultIsolation(pendingDefaultIsolation)
        for (name, method) in pendingCancel { typeInfo(name)?.cancelMethod = method }
        for (name, methods) in pendingNoArgumentMethods where Set(methods.map(\.name)).count == 1 {
            guard let info = typeInfo(name), info.cancelMethod == nil, CancelMethod.namesCancellation(info.name) else {
                continue
            }
            info.cancelMethod = methods[0]
        }
        for spelled in cancelMethods {
            guard let dot = spelled.lastIndex(of: ".") else { continue }
            let (type, method) = (String(spelled[..<dot]), String(spelled[spelled.index(after: dot)...]))
            let declared = pendingNoArgumentMethods[type]?.first { $0.name == method }
            userCancelMethods[Self.lastComponent(type)] = declared ?? CancelMethod(name: method, returnsValue: false)
            typeInfo(type)?.cancelMethod = userCancelMethods[Self.lastComponent(type)]
        }
        for (name, properties) in pendingProperties {
            typeInfo(name)?.properties.merge(properties.compactMapValues { $0 }) { first, _ in first }
        }
    }

}
