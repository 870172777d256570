import ArgumentParser
import Foundation
import MigrateCore

/// `futurebridge-migrate calls DIR...`: the call sites, where the default command writes forms.
struct CallsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "futurebridge-migrate calls",
        abstract: "Rewrites calls of completion-handler functions from async code into straight-line async code.",
        discussion: """
            Reads every .swift file under each <sources-dir> and, for each call made from async code of a \
            function that has an async counterpart (the API's own async function, `@available(*, renamed:)`, \
            `@completionHandlerAsync`, or the form this tool generates), rewrites the call and its handler \
            into `do { let value = try await … } catch { … }`. A call that cannot be shown to keep its \
            behaviour is left alone, and the report says why.

            A function of the module whose body reaches its completion handler only through such calls (a \
            callback pyramid) gets an async version, and its old signature becomes a shim over it, marked \
            `@available(*, renamed:)`; its callers follow, to a fixpoint, and the report lists the chains.

            The module's own callback functions get their async forms in the same run (in <File>+Async.swift, \
            as the default command writes them), over the edited sources: the calls that await them, the \
            functions converted and the forms are built and checked together.

            The package is built before and after (see --no-build): each edit the compiler rejects is \
            withdrawn, with what depends on it, and reported with the compiler's message.

            Without --write, prints the edits as a unified diff on standard output (`git apply -p0`); the \
            report goes to standard error.
            """
    )

    @Argument(help: "The directory of a module's Swift sources (searched recursively); several are several modules.")
    var sourcesDirs: [String]

    @Option(
        name: .customLong("context"),
        help: "The sources of a module the calls use (repeatable): where the API and its async forms are.")
    var contextDirs: [String] = []

    @Option(
        name: .customLong("symbol-graph"),
        help: "A symbol graph (.symbols.json) or a directory of them (repeatable), for the APIs of other modules.")
    var symbolGraphs: [String] = []

    @OptionGroup var isolation: DefaultIsolationOption

    @Flag(help: "Edit the files in place (default: print a unified diff).")
    var write = false

    @Flag(
        help: """
            Print only each module's counts (call sites found, converted, left alone by reason, notes; functions \
            converted, shims, chains), no diff.
            """)
    var summary = false

    @Flag(
        name: .customLong("no-propagation"),
        help: """
            Leave a call in synchronous code alone (by default, a function that ends with such a call becomes \
            async, with its callers up to a test, an async caller, or a `Task` where code must stay synchronous).
            """)
    var noPropagation = false

    @OptionGroup var gates: GateOptions

    mutating func run() throws {
        let graphs = try symbolGraphs.flatMap { try SymbolGraph.load(from: URL(fileURLWithPath: $0)) }
        let context = try contextDirs.flatMap { try sourceInputs(under: URL(fileURLWithPath: $0)) }
        var modules: [(root: URL, options: MigrationOptions, inputs: [SourceInput])] = []
        for sourcesDir in sourcesDirs {
            let root = try FutureBridgeMigrate.directory(sourcesDir)
            var options = MigrationOptions(
                defaultIsolation: try isolation.resolved(sources: root), propagates: !noPropagation)
            options.languageMode = PackageManifest.languageMode(of: root)
            modules.append((root, options, try sourceInputs(under: root)))
        }
        var results: [(root: URL, result: CallMigrationResult, forms: MigrationResult)] = []
        // Modules given together (a package's sources and its tests) are one call graph, where a
        // function made async takes its callers in the other modules along, when their options agree.
        // (Not when one directory holds another, or is given twice: a file would be read twice.)
        let paths = modules.map { $0.root.standardizedFileURL.path + "/" }
        let nested = paths.indices.contains { i in
            paths.indices.contains { j in i != j && paths[j].hasPrefix(paths[i]) }
        }
        let base =
            modules.count > 1 && !nested && modules.allSatisfy({ $0.options == modules[0].options })
            ? Self.commonAncestor(modules.map(\.root)) : nil
        let prefix = { (root: URL) -> String in
            guard let base else { return "" }
            return String(root.standardizedFileURL.path.dropFirst(base.path.count)).drop { $0 == "/" } + "/"
        }
        // The package's other code: a function it calls is not made async.
        let package = modules.first.flatMap { PackageManifest.packageRoot(above: $0.root) }
        let everything =
            try package.map { root in
                try sourceInputs(under: root).map {
                    (root.appendingPathComponent($0.path).standardizedFileURL.path, $0)
                }
            } ?? []
        let outside = { (roots: [URL]) -> [SourceInput] in
            let given = roots.map { $0.standardizedFileURL.path + "/" }
            return everything.filter { path, _ in !given.contains(where: path.hasPrefix) }.map(\.1)
        }
        let plan = { (withdrawn: Withdrawals, index: CompilerIndex?) -> [GateFile] in
            var together: CallMigrationResult?
            if base != nil {
                var options = modules[0].options
                options.withdrawn = withdrawn
                options.compilerIndex = index
                let inputs = modules.flatMap { module in
                    module.inputs.map { SourceInput(path: prefix(module.root) + $0.path, text: $0.text) }
                }
                together = CallMigrator(options: options).migrate(
                    inputs, symbolGraphs: graphs, context: context, outside: outside(modules.map(\.root)))
            }
            results = modules.map { module in
                var options = module.options
                options.withdrawn = withdrawn
                options.compilerIndex = index
                let calls =
                    together?.restricted(to: prefix(module.root))
                    ?? CallMigrator(options: options).migrate(
                        module.inputs, symbolGraphs: graphs, context: context, outside: outside([module.root]))
                // The forms the calls await, written by the generator over the edited sources (so the
                // functions made async here have their async versions, and get no form).
                let edited = Dictionary(calls.files.map { ($0.path, $0.text) }) { first, _ in first }
                let inputs = module.inputs.map { SourceInput(path: $0.path, text: edited[$0.path] ?? $0.text) }
                let forms = Migrator(options: options).migrate(inputs, symbolGraphs: graphs, context: context)
                return (module.root, calls, forms)
            }
            return results.flatMap { root, calls, forms in
                calls.files.map {
                    GateFile(url: root.appendingPathComponent($0.path), text: $0.text, placements: $0.placements)
                }
                    + forms.files.map {
                        GateFile(url: root.appendingPathComponent($0.path), text: $0.text, placements: $0.placements)
                    }
            }
        }
        // A form file is new: one that exists is never replaced.
        let existing = plan([:], nil).map(\.url).filter { url in
            Migrator.isGenerated(url.path) && FileManager.default.fileExists(atPath: url.path)
        }
        guard existing.isEmpty else {
            throw ValidationError(ExistingFilesError(paths: existing.map(\.path)).description)
        }
        let reports = try gates.run(sources: modules.map(\.root), keep: write, plan: plan)
        standardError(reports.tests)
        for (root, calls, forms) in results {
            let module = root.lastPathComponent
            standardError(summary ? calls.summary(module: module) : calls.report(module: module))
            if !forms.entries.isEmpty {
                standardError(
                    "forms the calls await, and the module's other callback functions:\n"
                        + (summary
                            ? forms.summary(mode: .asyncForms, module: module)
                            : forms.report(mode: .asyncForms, module: module)))
            }
        }
        standardError(reports.build)
        for (root, calls, forms) in results {
            for file in calls.files {
                let target = root.appendingPathComponent(file.path)
                if write {
                    standardError("edited \(FutureBridgeMigrate.display(target))\n")
                } else if !summary {
                    let path = FutureBridgeMigrate.display(target)
                    // The diff names the file as given; printed, as the command's other paths are.
                    let hunks = file.diff.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).last!
                    print("--- \(path)\n+++ \(path)\n" + hunks, terminator: "")
                }
            }
            for file in forms.files {
                let target = root.appendingPathComponent(file.path)
                if write {
                    standardError("wrote \(FutureBridgeMigrate.display(target))\n")
                } else if !summary {
                    print(unifiedDiff(creating: FutureBridgeMigrate.display(target), text: file.text), terminator: "")
                }
            }
        }
    }

    /// The deepest directory that holds every one of `roots`.
    static func commonAncestor(_ roots: [URL]) -> URL {
        var parts = roots[0].standardizedFileURL.pathComponents
        for root in roots.dropFirst() {
            let other = root.standardizedFileURL.pathComponents
            parts = Array(zip(parts, other).prefix { $0 == $1 }.map(\.0))
        }
        return URL(fileURLWithPath: NSString.path(withComponents: parts.isEmpty ? ["/"] : parts), isDirectory: true)
    }
}
