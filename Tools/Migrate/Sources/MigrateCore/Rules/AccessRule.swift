/// Whether the generated file can see the function, and whether it is the API the user
/// asked for (`--public-only`: public and open functions, none whose name starts with `_`).
struct AccessRule: Rule {
    static let summary = "Private functions, and with --public-only internal and underscored ones, get no form."

    func decide(_ site: FunctionSite, in context: RuleContext) -> Plan? {
        let access = site.access
        if access <= .fileprivate { return .skipped(.notVisible, "") }
        if context.options.publicOnly, access < .public { return .skipped(.notPublic, "") }
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
    ]
}
