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

    var types: [String: TypeInfo] = [:]
    var typesBySimpleName: [String: TypeInfo] = [:]
    var functions: [FunctionKey: [FunctionEntry]] = [:]
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
    var pendingProperties: [String: [String: TypeSyntax?]] = [:]
    /// `Owner|name` of every property.
    var propertyNames: [String: Bool] = [:]

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

}
