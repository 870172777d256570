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

    @OptionGroup var gates: GateOptions

    mutating func run() throws {
        let graphs = try symbolGraphs.flatMap { try SymbolGraph.load(from: URL(fileURLWithPath: $0)) }
        let context = try contextDirs.flatMap { try sourceInputs(under: URL(fileURLWithPath: $0)) }
        var modules: [(root: URL, options: MigrationOptions, inputs: [SourceInput])] = []
        for sourcesDir in sourcesDirs {
            let root = try FutureBridgeMigrate.directory(sourcesDir)
            modules.append(
                (
                    root, MigrationOptions(defaultIsolation: try isolation.resolved(sources: root)),
                    try sourceInputs(under: root)
                ))
        }
        var results: [(root: URL, result: CallMigrationResult)] = []
        let reports = try gates.run(sources: modules.map(\.root), keep: write) { withdrawn in
            results = modules.map { module in
                var options = module.options
                options.withdrawn = withdrawn
                return (
                    module.root,
                    CallMigrator(options: options).migrate(module.inputs, symbolGraphs: graphs, context: context)
                )
            }
            return results.flatMap { root, result in
                result.files.map {
                    GateFile(url: root.appendingPathComponent($0.path), text: $0.text, placements: $0.placements)
                }
            }
        }
        standardError(reports.tests)
        for (root, result) in results {
            let module = root.lastPathComponent
            standardError(summary ? result.summary(module: module) : result.report(module: module))
        }
        standardError(reports.build)
        for (root, result) in results {
            for file in result.files {
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
        }
    }
}
