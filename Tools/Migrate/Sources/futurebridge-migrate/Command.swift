import ArgumentParser
import Foundation
import MigrateCore

struct FutureBridgeMigrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "futurebridge-migrate",
        abstract: "Writes async forms of completion-handler functions, built on FutureBridge.",
        discussion: """
            Reads every .swift file under each <sources-dir> and, for each function whose last \
            parameter is a completion handler of a shape FutureBridge adapts, writes an \
            `async throws` form in <File>+Async.swift, next to the original. With \
            --legacy-shims, writes completion-handler shims of the async functions instead, \
            in <File>+LegacyShims.swift.

            Without --write, prints the new files as a unified diff (against /dev/null) on \
            standard output, for review or for `git apply -p0`. The report (every function \
            considered: generated, or skipped and why) goes to standard error. The tool never \
            edits an existing file, and --write refuses to overwrite one.

            `futurebridge-migrate calls <sources-dir>...` rewrites the calls instead (see its --help).
            """
    )

    @Argument(
        help: """
            The directory of a module's Swift sources (searched recursively); several \
            directories are several modules, each migrated on its own.
            """)
    var sourcesDirs: [String]

    @Flag(help: "Write completion-handler shims for async functions, for callers not migrated yet.")
    var legacyShims = false

    @Flag(help: "Write the new files (default: print them as a unified diff).")
    var write = false

    @Option(help: "Put the new files under this directory, in the sources' layout (default: next to the originals).")
    var outputDir: String?

    @Option(
        name: .customLong("import"),
        help: "A module for every new file to import (repeatable): the API's module, when the new files live elsewhere."
    )
    var imports: [String] = []

    @Flag(help: "Only public and open functions (for new files compiled outside the API's module).")
    var publicOnly = false

    @Option(
        name: .customLong("symbol-graph"),
        help: """
            A symbol graph (.symbols.json) or a directory of them (repeatable), for what the sources \
            cannot tell: supertypes, cancel methods, Sendable conformances and async functions of the \
            modules they use (swift-symbolgraph-extract, or swift package dump-symbol-graph).
            """)
    var symbolGraphs: [String] = []

    @Option(
        name: .customLong("context"),
        help: """
            The sources of a module the migrated ones use (repeatable): read for what they declare, \
            never migrated. For a module whose symbol graph is not at hand (a package's checkouts).
            """)
    var contextDirs: [String] = []

    @Option(
        name: .customLong("one-shot"),
        help:
            "A function whose handler is called once (repeatable): `name`, `Type.name` or `Type.name(label:handler:)`.")
    var oneShot: [String] = []

    @Option(
        name: .customLong("multi-shot"),
        help:
            "A function whose handler is called many times, which gets a stream form (repeatable), named the same way.")
    var multiShot: [String] = []

    @Option(
        name: .customLong("cancel-method"),
        help: """
            The method that stops what a returned type stands for, where its name does not say so \
            (repeatable): `Type.method`, a method with no arguments (`RequestHandle.cancelRequest`).
            """)
    var cancelMethods: [String] = []

    @OptionGroup var isolation: DefaultIsolationOption

    @Flag(help: "Print only the summary of each module, not one line per function.")
    var summary = false

    @OptionGroup var gates: GateOptions

    mutating func run() throws {
        let graphs = try symbolGraphs.flatMap { try SymbolGraph.load(from: URL(fileURLWithPath: $0)) }
        let context = try contextDirs.flatMap { try sourceInputs(under: URL(fileURLWithPath: $0)) }
        let roots = try sourcesDirs.map(Self.directory)
        var modules: [(root: URL, output: URL, options: MigrationOptions, inputs: [SourceInput])] = []
        for root in roots {
            var options = MigrationOptions(
                mode: legacyShims ? .legacyShims : .asyncForms, publicOnly: publicOnly, imports: imports,
                oneShot: Set(oneShot), multiShot: Set(multiShot), cancelMethods: cancelMethods)
            options.defaultIsolation = try isolation.resolved(sources: root)
            // Several modules under one output directory: one folder each.
            let output =
                outputDir.map { URL(fileURLWithPath: $0).standardizedFileURL }
                .map { roots.count > 1 ? $0.appendingPathComponent(root.lastPathComponent) : $0 } ?? root
            modules.append((root, output, options, try sourceInputs(under: root)))
        }
        var results: [(root: URL, output: URL, result: MigrationResult)] = []
        let plan = { (withdrawn: Withdrawals, index: CompilerIndex?) -> [GateFile] in
            results = modules.map { module in
                var options = module.options
                options.withdrawn = withdrawn
                options.compilerIndex = index
                let result = Migrator(options: options).migrate(module.inputs, symbolGraphs: graphs, context: context)
                return (module.root, module.output, result)
            }
            return results.flatMap { _, output, result in
                result.files.map {
                    GateFile(url: output.appendingPathComponent($0.path), text: $0.text, placements: $0.placements)
                }
            }
        }
        if write {
            // Nothing is replaced: checked once, for every file the tool may write.
            let existing = plan([:], nil).map(\.url).filter { FileManager.default.fileExists(atPath: $0.path) }
            guard existing.isEmpty else {
                throw ValidationError(ExistingFilesError(paths: existing.map(\.path)).description)
            }
        }
        let reports = try gates.run(sources: roots, keep: write, plan: plan)
        standardError(reports.tests)
        for (root, _, result) in results {
            let module = Self.moduleName(root)
            standardError(
                summary
                    ? result.summary(mode: legacyShims ? .legacyShims : .asyncForms, module: module)
                    : result.report(
                        mode: legacyShims ? .legacyShims : .asyncForms, module: results.count > 1 ? module : nil))
        }
        standardError(reports.build)
        for (_, output, result) in results {
            for file in result.files {
                let target = output.appendingPathComponent(file.path)
                if write {
                    standardError("wrote \(Self.display(target))\n")
                } else if !summary {
                    print(unifiedDiff(creating: Self.display(target), text: file.text), terminator: "")
                }
            }
        }
    }

    /// `path` as a directory URL, or a usage error.
    static func directory(_ path: String) throws -> URL {
        let root = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(path) is not a directory")
        }
        return root
    }

    /// The module a sources directory holds: its name, or its parent's when it is a
    /// package's generic sources folder (`Alamofire/Source` is Alamofire).
    static func moduleName(_ root: URL) -> String {
        let name = root.lastPathComponent
        let generic = ["source", "sources", "src", "lib", "swift"]
        guard generic.contains(name.lowercased()), root.pathComponents.count > 2 else { return name }
        return root.deletingLastPathComponent().lastPathComponent
    }

    /// A path relative to the current directory when it is under it.
    static func display(_ url: URL) -> String {
        let current = FileManager.default.currentDirectoryPath
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return url.path.hasPrefix(prefix) ? String(url.path.dropFirst(prefix.count)) : url.path
    }
}

/// `--default-isolation`, for both commands.
struct DefaultIsolationOption: ParsableArguments {
    @Option(
        name: .customLong("default-isolation"),
        help: """
            The module's default actor isolation: `MainActor` (a target built with \
            `.defaultIsolation(MainActor.self)`, `-default-isolation MainActor` or Xcode's \
            SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor) or `nonisolated`. Default: what the target's \
            Package.swift declares, else nonisolated.
            """)
    var defaultIsolation: String?

    /// The default isolation of the module under `sources`: the option, else what its
    /// target's `Package.swift` declares.
    func resolved(sources: URL) throws -> String? {
        switch defaultIsolation {
        case nil: return PackageManifest.defaultIsolation(of: sources)
        case "MainActor", "@MainActor": return "@MainActor"
        case "nonisolated": return nil
        case let other?: throw ValidationError("--default-isolation takes MainActor or nonisolated, not \(other)")
        }
    }
}
