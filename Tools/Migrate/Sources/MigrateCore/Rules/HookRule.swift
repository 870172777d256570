import SwiftSyntax

/// A function the library calls, not its users: a delegate method, or a requirement (or an
/// implementation of one) of a hook protocol. Its handler is for the conforming type to call.
struct HookRule: Rule {
    static let summary = "Delegate methods and hook protocols' requirements are the library's to call: skipped."

    /// Why the library, not its users, calls this function: a delegate method
    /// (`urlSession(_ session: URLSession, …)`, `task(_ task: URLSessionTask, …)`), or a
    /// requirement (or its implementation) of a hook protocol (`…Delegate`, `…Handler`,
    /// `…Retrier`…).
    func decide(_ site: FunctionSite, in context: RuleContext) -> String? {
        let index = context.index
        if let hook = index.hookRequirement(owner: site.context.ownerName, name: site.name, labels: site.labels) {
            return "requirement of `\(hook)`"
        }
        // A requirement users implement for the library to call: no type of the sources
        // conforms to the protocol, and the sources call the requirement on a value of the
        // protocol's type (or of a generic type constrained to it). A form would be called by
        // nobody. A call of the same selector on another type says nothing of the protocol.
        if site.context.owner?.kind == .protocol, let owner = site.context.ownerName,
            index.conformingTypes(to: owner).isEmpty,
            let receiver = context.callSites.calls(site.name, labels: site.labels).lazy.compactMap({
                Self.receiver(of: $0.node, reaching: owner, in: index)
            }).first
        {
            return "requirement of `\(SourceIndex.lastComponent(owner))`, which users implement: no type of the "
                + "module conforms to it, and the module calls `\(site.selectorText)` on \(receiver)"
        }
        let conformsToDelegate = index.selfAndSupertypes(site.context.ownerName).dropFirst().contains {
            SourceIndex.hookSuffixes.contains(where: SourceIndex.lastComponent($0).hasSuffix)
        }
        if let first = site.parameters.first, first.label == nil, let typeName = TypeText.simpleName(first.type),
            typeName.lowercased().hasSuffix(site.name.lowercased()),
            conformsToDelegate
                || site.labels.dropFirst().contains(where: { label in
                    ["did", "will", "should"].contains { label?.hasPrefix($0) ?? false }
                })
        {
            return "delegate method: `\(site.name)(_:)` receives the `\(typeName)` that calls it"
        }
        return nil
    }

    /// How the report names the receiver of `call` when its type is the protocol `owner`, a
    /// type that inherits from it, or a generic type constrained to it; nil for any other
    /// receiver, or one whose type the syntax does not say.
    private static func receiver(of call: FunctionCallExprSyntax, reaching owner: String, in index: SourceIndex)
        -> String?
    {
        let name = SourceIndex.lastComponent(owner)
        let type: String
        switch ReceiverType.of(call) {
        case .type(let written): type = written
        case .implicitSelf(let enclosing?): type = enclosing
        case .implicitSelf(nil), .unknown: return nil
        }
        if index.selfAndSupertypes(type).map(SourceIndex.lastComponent).contains(name) {
            return "a value of type `\(type)`"
        }
        if ReceiverType.constraints(of: type, at: call).contains(name) {
            return "a value of type `\(type)`, a generic parameter constrained to it"
        }
        return nil
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a requirement of a protocol the library calls",
            before: """
                public protocol RequestRetrier: Sendable {
                    func retry(_ request: Int, dueTo error: any Error, completion: @escaping @Sendable (Bool) -> Void)
                }
                """,
            function: "RequestRetrier.retry(_:dueTo:completion:)",
            after: .skipped(.hook, "requirement of `RequestRetrier`")),
        RuleExample(
            "a delegate method",
            before: """
                import Foundation
                public final class SessionDelegate: NSObject, @unchecked Sendable {
                    public func urlSession(_ session: URLSession, task: URLSessionTask,
                                           willPerformHTTPRedirection response: HTTPURLResponse,
                                           completionHandler: @escaping @Sendable (URLRequest?) -> Void) {}
                }
                """,
            function: "SessionDelegate.urlSession(_:task:willPerformHTTPRedirection:completionHandler:)",
            after: .skipped(.hook, "delegate method")),
        RuleExample(
            "a requirement users implement and the library calls: no type of the module conforms to it",
            before: authenticator(conformer: ""),
            function: "Authenticator.refresh(_:for:completion:)",
            after: .skipped(
                .hook,
                "requirement of `Authenticator`, which users implement: no type of the module conforms to it, and "
                    + "the module calls `refresh(_:for:completion:)` on a value of type `A`, a generic parameter "
                    + "constrained to it")),
        RuleExample(
            "the same selector called on an unrelated type says nothing of the protocol: its requirement gets a form",
            before: """
                public protocol Storage: Sendable {
                    func save(_ data: String, completion: @escaping @Sendable (Result<Int, any Error>) -> Void)
                }
                public final class Uploader: Sendable {
                    public init() {}
                    public func save(_ data: String, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                public func upload() {
                    let uploader = Uploader()
                    uploader.save("data") { _ in }
                }
                """,
            function: "Storage.save(_:completion:)",
            after: .generated(["func save(_ data: String) async throws -> Int"])),
        RuleExample(
            "the same requirement with a conforming type in the module: users may call it, so it gets a form",
            before: authenticator(
                conformer: """
                    public final class TokenAuthenticator: Authenticator {
                        public func refresh(_ credential: String, for session: Int,
                                            completion: @escaping @Sendable (Result<String, any Error>) -> Void) {}
                    }
                    """),
            function: "Authenticator.refresh(_:for:completion:)",
            after: .generated(["func refresh(_ credential: String, for session: Int) async throws -> String"])),
    ]

    /// A protocol users implement, which the library's interceptor calls with its own
    /// completion, and `conformer`.
    private static func authenticator(conformer: String) -> String {
        """
        public protocol Authenticator: AnyObject, Sendable {
            func refresh(_ credential: String, for session: Int,
                         completion: @escaping @Sendable (Result<String, any Error>) -> Void)
        }
        public final class AuthenticationInterceptor<A: Authenticator>: Sendable {
            let authenticator: A
            public init(authenticator: A) { self.authenticator = authenticator }
            public func adapt() {
                authenticator.refresh("expired", for: 1) { _ in }
            }
        }
        """ + "\n" + conformer
    }
}
