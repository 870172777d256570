/// What the tool asks the compiler's index: signatures, call targets, conformances, overrides.
extension CompilerIndex {
    /// The function, method or initializer declared (or defined) at `file:line` (the line of
    /// its name), if the index has one there.
    public func declaration(file: String, line: Int) -> IndexOccurrence? {
        callables(file: file, line: line).first
    }

    /// The resolved signature of the function declared at `file:line`: its parameter types
    /// with every type alias expanded. `genericNames` and `keepingSwiftFor` are as
    /// ``ResolvedSignature/init(usr:demangled:genericNames:keepingSwiftFor:)`` takes them.
    public func resolvedSignature(
        file: String, line: Int, genericNames: [[String]] = [], keepingSwiftFor: Set<String> = []
    ) -> ResolvedSignature? {
        guard let declaration = declaration(file: file, line: line),
            let demangled = Demangler.demangle(usr: declaration.symbol.usr)
        else { return nil }
        return ResolvedSignature(
            usr: declaration.symbol.usr, demangled: demangled, genericNames: genericNames,
            keepingSwiftFor: keepingSwiftFor)
    }

    /// What the call (or reference) at `file:line:column` refers to: the callable referenced
    /// at that column, or else the first one after it on the line.
    public func reference(file: String, line: Int, column: Int) -> Reference? {
        let candidates = occurrences(inFile: file).filter {
            $0.line == line && $0.column >= column && $0.symbol.kind.isCallable && $0.roles.contains(.reference)
        }
        guard let occurrence = candidates.min(by: { $0.column < $1.column }) else { return nil }
        let owner =
            definitionRelations(of: occurrence.symbol.usr, .childOf).first
            ?? occurrence.related(.receivedBy).first
        return Reference(
            symbol: occurrence.symbol, owner: owner, isCall: occurrence.roles.contains(.call),
            isDynamic: occurrence.roles.contains(.dynamic))
    }

    /// A call's (or reference's) target.
    public struct Reference: Sendable, Equatable {
        /// The function referred to.
        public var symbol: IndexSymbol
        /// The type that declares it (from its definition when the module has it, else the
        /// receiver's type the compiler recorded).
        public var owner: IndexSymbol?
        /// Called there (not only named).
        public var isCall: Bool
        /// Dispatched at run time (a class method or a protocol requirement).
        public var isDynamic: Bool
    }

    /// The types named `name` (a simple or dotted name: its last component counts) that the
    /// index mentions, declared in the module or not.
    public func types(named name: String) -> [IndexSymbol] {
        typesByName[name.split(separator: ".").last.map(String.init) ?? name] ?? []
    }

    /// The protocols and superclasses of the type `usr`, directly or not, including those
    /// declared in extensions (`extension URLSession: Fetching`).
    public func conformances(ofUSR usr: String) -> [IndexSymbol] {
        reached(from: usr) { current in
            ([current] + (extensionsByType[current] ?? [])).flatMap { bases[$0] ?? [] }
        }
    }

    /// The types that conform to (or inherit from) `usr`, directly or not, the conformances
    /// declared in extensions included.
    public func conformingTypes(toUSR usr: String) -> [IndexSymbol] {
        reached(from: usr) { current in
            (derived[current] ?? []).flatMap { type in
                type.kind == .extension ? extendedByExtension[type.usr] ?? [] : [type]
            }
        }
    }

    /// The symbols reached from `usr` by `step`, step after step, each once, nearest first.
    private func reached(from usr: String, _ step: (String) -> [IndexSymbol]) -> [IndexSymbol] {
        var result: [IndexSymbol] = []
        var queue = [usr]
        var seen: Set<String> = [usr]
        while !queue.isEmpty {
            for symbol in step(queue.removeFirst()) where seen.insert(symbol.usr).inserted {
                result.append(symbol)
                queue.append(symbol.usr)
            }
        }
        return result
    }

    /// The methods that the method `usr` overrides, or whose requirement it implements.
    public func overridden(byUSR usr: String) -> [IndexSymbol] {
        definitionRelations(of: usr, .overrideOf)
    }

    /// The methods of the module that override the method `usr` (or implement it, for a
    /// protocol requirement).
    public func overrides(ofUSR usr: String) -> [IndexSymbol] {
        var seen: Set<String> = []
        return occurrences(ofUSR: usr).filter { occurrence in
            !occurrence.roles.isDisjoint(with: [.definition, .declaration])
                && occurrence.relations.contains { $0.symbol.usr == usr && $0.roles.contains(.overrideOf) }
        }.map(\.symbol).filter { seen.insert($0.usr).inserted }
    }

    /// The symbols related by `roles` to the definitions (or declarations) of `usr`.
    func definitionRelations(of usr: String, _ roles: SymbolRoles) -> [IndexSymbol] {
        var seen: Set<String> = []
        return occurrences(ofUSR: usr).filter {
            $0.symbol.usr == usr && !$0.roles.isDisjoint(with: [.definition, .declaration])
        }.flatMap { $0.related(roles) }.filter { seen.insert($0.usr).inserted }
    }
}
