/// Whether the generated file can see the function, and whether it is the API the user
/// asked for (`--public-only`: public and open functions, none whose name starts with `_`).
struct AccessRule: Rule {
    static let summary = "Private functions, and with --public-only internal and underscored ones, get no form."

    func decide(_ site: FunctionSite, in context: RuleContext) -> Plan? {
        let access = site.access
        if access <= .fileprivate { return .skipped(.notVisible, "") }
        if context.options.publicOnly, access < .public { return .skipped(.notPublic, "") }
        if context.options.publicOnly, let spi = Self.spi(site, in: context) {
            return .skipped(.notPublic, "`\(spi)`: SPI, not public API")
        }
        return nil
    }

    /// The `@_spi(…)` of the function, or of a type it is declared in (`WebSocketRequest.Event`
    /// inside `@_spi(WebSocket) public final class WebSocketRequest`).
    static func spi(_ site: FunctionSite, in context: RuleContext) -> String? {
        if let own = site.carriedAttributes.first(where: { $0.hasPrefix("@_spi") }) { return own }
        for owner in site.context.owners {
            var components: [String] = []
            for component in owner.qualifiedName.split(separator: ".") {
                components.append(String(component))
                if let spi = context.index.typeInfo(components.joined(separator: "."))?.spi { return spi }
            }
        }
        return nil
    }

    /// `--public-only`: an underscored name is not public API.
    func underscored(_ site: FunctionSite, in context: RuleContext) -> Plan? {
        context.options.publicOnly && site.name.hasPrefix("_")
            ? .skipped(.notPublic, "underscored: not public API") : nil
    }

    static let examples: [RuleExample] = [
        RuleExample(
            "a private function is not visible from the generated file",
            before: """
                final class API: Sendable {
                    private func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API.load(completion:)",
            after: .skipped(.notVisible, "")),
        RuleExample(
            "--public-only: an internal function, and a public one named with an underscore",
            before: """
                public final class API: Sendable {
                    func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                    public func _reload(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "API._reload(completion:)",
            after: .skipped(.notPublic, "underscored"),
            options: MigrationOptions(publicOnly: true)),
        RuleExample(
            "--public-only: a function of an `@_spi` type (and its nested types) is not public API",
            before: """
                @_spi(WebSocket) public final class Socket: Sendable {
                    public enum Event: Sendable {}
                    public func send(_ text: String, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                extension Socket.Event {
                    public func ping(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
                }
                """,
            function: "Socket.Event.ping(completion:)",
            after: .skipped(.notPublic, "`@_spi(WebSocket)`: SPI, not public API"),
            options: MigrationOptions(publicOnly: true)),
    ]
}
