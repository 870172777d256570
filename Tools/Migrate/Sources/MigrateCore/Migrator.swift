import SwiftParser
import SwiftSyntax

/// Reads Swift sources and plans the new files: async forms of completion-handler
/// functions, or completion-handler shims of async functions.
///
/// ```swift
/// let result = Migrator(options: MigrationOptions()).migrate([SourceInput(path: "Client.swift", text: source)])
/// print(result.files[0].text)       // Client+Async.swift
/// print(result.report(mode: .asyncForms))
/// ```
public struct Migrator: Sendable {
    public var options: MigrationOptions

    public init(options: MigrationOptions = MigrationOptions()) {
        self.options = options
    }

    /// Plans the new files for `inputs` (every file of the module: all of them inform
    /// the analysis, such as which types are `Sendable` and which async functions exist;
    /// files this tool generated, by their names, get no new files of their own).
    ///
    /// `symbolGraphs` say what the compiler knows of the modules the sources use (their
    /// types' supertypes, cancel methods, `Sendable` conformances and async functions),
    /// where the sources alone cannot tell.
    ///
    /// `context` is the sources of modules the migrated one uses, read the same way (a
    /// package's checkouts, when no symbol graph is at hand): they inform the analysis and
    /// get no files of their own.
    public func migrate(_ inputs: [SourceInput], symbolGraphs: [SymbolGraph] = [], context: [SourceInput] = [])
        -> MigrationResult
    {
        let parsed = inputs.map { parseSwift($0.text) }
        let interfaces =
            symbolGraphs.map { parseSwift($0.interface) } + context.map { parseSwift($0.text) }
        let index = SourceIndex(
            files: parsed, interfaces: interfaces, cancelMethods: options.cancelMethods,
            lowestCallableAccess: options.publicOnly ? .public : .internal, defaultIsolation: options.defaultIsolation,
            compiler: options.compilerIndex)
        let callSites = CallSites(files: zip(inputs, parsed).map { ($0.path, $1) })
        let planner = AsyncFormPlanner(index: index, options: options, callSites: callSites)
        var plans: [(SourceInput, SourceLocationConverter, [(FunctionSite?, Int, String, Plan)])] = []

        var foreignFutures: [String: Int] = [:]
        for (input, tree) in zip(inputs, parsed) {
            let converter = SourceLocationConverter(fileName: input.path, tree: tree)
            var filePlans: [(FunctionSite?, Int, String, Plan)] = []
            // Generated files inform the analysis (their functions are siblings) but get
            // no generated files of their own.
            if Self.isGenerated(input.path) { continue }
            var walker = DeclarationWalker()
            walker.onFunction = { decl, context in
                let line = converter.location(for: decl.name.positionAfterSkippingLeadingTrivia).line
                let site = FunctionSite(
                    decl: decl, context: context, file: input.path, line: line,
                    parameters: Parameter.list(decl.signature.parameterClause), index: index)
                let plan: Plan?
                switch options.mode {
                case .asyncForms: plan = planner.plan(site)
                case .legacyShims: plan = LegacyShimPlanner(index: index, options: options).plan(site)
                }
                if let plan {
                    filePlans.append((site, line, site.displayName, plan))
                } else if options.mode == .asyncForms,
                    let future = ForeignFutureRule().decide(site, in: planner.context)
                {
                    foreignFutures[future, default: 0] += 1
                }
            }
            walker.onInitializer = { decl, context in
                let parameters = Parameter.list(decl.signature.parameterClause)
                let isCandidate: Bool
                switch options.mode {
                case .asyncForms:
                    isCandidate = parameters.contains { planner.handlerType($0) != nil }
                case .legacyShims:
                    isCandidate = decl.signature.effectSpecifiers?.asyncSpecifier != nil
                }
                guard isCandidate else { return }
                let line = converter.location(for: decl.initKeyword.positionAfterSkippingLeadingTrivia).line
                let name = (context.ownerName.map { $0 + "." } ?? "") + selector("init", parameters.map(\.label))
                filePlans.append((nil, line, name, .skipped(.initializer, "")))
            }
            walker.walk(tree)
            plans.append((input, converter, filePlans))
        }

        // Two overloads with one async form: the first keeps it. A type whose protocol
        // requirement has a form in the protocol's extension: that form serves the type. An
        // override of a method whose form is in its superclass's extension: that form calls the
        // override (and a form declared in an extension cannot be overridden).
        var signatures: Set<String> = []
        var protocolForms: [String: Set<String>] = [:]
        var typeForms: [String: Set<String>] = [:]
        for (_, _, filePlans) in plans {
            for (site, _, _, plan) in filePlans {
                guard case .generated(let member) = plan, let site, let owner = site.context.ownerName else { continue }
                let owning = SourceIndex.lastComponent(owner)
                if site.isProtocolMember {
                    protocolForms[owning, default: []].insert(member.memberKey)
                } else if !site.isOverride {
                    typeForms[owning, default: []].insert(member.memberKey)
                }
            }
        }
        func covering(_ site: FunctionSite?, _ member: GeneratedMember, _ forms: [String: Set<String>]) -> String? {
            guard let owner = site?.context.ownerName else { return nil }
            return index.allConformances(of: owner).first {
                $0 != SourceIndex.lastComponent(owner) && forms[$0]?.contains(member.memberKey) ?? false
            }
        }
        var entries: [ReportEntry] = []
        var files: [GeneratedFile] = []
        for (input, _, filePlans) in plans {
            var members: [GeneratedMember] = []
            for (site, line, name, plan) in filePlans {
                var outcome: Outcome
                var form: FormInfo?
                switch plan {
                case .skipped(let reason, let detail):
                    outcome = .skipped(reason, detail)
                case .generated(let member):
                    outcome = .generated(member.note)
                    if let covering = covering(site, member, protocolForms) {
                        outcome = .skipped(.coveredByProtocol, "`\(covering)`")
                    } else if let site, site.isOverride, let superclass = covering(site, member, typeForms) {
                        outcome = .skipped(.coveredByOverridden, "`\(superclass).\(site.selectorText)`")
                    } else if !signatures.insert(member.signatureKey).inserted {
                        outcome = .skipped(.duplicate, "")
                    } else {
                        members.append(member)
                        form = member.form
                    }
                }
                entries.append(ReportEntry(file: input.path, line: line, function: name, outcome: outcome, form: form))
            }
            if !members.isEmpty {
                let (text, placements) = FileEmitter(options: options, index: index).placedFile(
                    for: input, tree: parsed[inputs.firstIndex(of: input)!], members: members)
                files.append(
                    GeneratedFile(
                        path: Self.generatedPath(for: input.path, mode: options.mode), text: text,
                        placements: placements))
            }
        }
        return MigrationResult(files: files, entries: entries, foreignFutures: foreignFutures)
    }

    /// `Sources/App/Client.swift` → `Sources/App/Client+Async.swift`.
    public static func generatedPath(for path: String, mode: MigrationMode) -> String {
        let base = path.hasSuffix(".swift") ? String(path.dropLast(".swift".count)) : path
        return base + mode.fileSuffix + ".swift"
    }

    /// Whether a file is one this tool generates (by its name).
    public static func isGenerated(_ path: String) -> Bool {
        path.hasSuffix(MigrationMode.asyncForms.fileSuffix + ".swift")
            || path.hasSuffix(MigrationMode.legacyShims.fileSuffix + ".swift")
    }
}
