import SwiftSyntax

/// What a returned value is as a cancel handle.
extension SourceIndex {
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
        if let method = userCancelMethods[name], typeInfo(name) == nil { return .cancellable(name, method) }
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
