import ArgumentParser
import Foundation
import MigrateCore

/// The compile gate and the test gate, for both commands.
struct GateOptions: ParsableArguments {
    @Flag(
        name: .customLong("no-build"),
        help: """
            Do not build what the tool writes (a dry run that nothing checked): the report says so. By default \
            the package is built before and after, and each edit the compiler rejects is withdrawn.
            """)
    var noBuild = false

    @Option(
        name: .customLong("build-command"),
        help: """
            The package's build, run by /bin/sh in --build-directory (default: `swift build --build-tests` in \
            the directory of the nearest Package.swift above the sources). For an Xcode project: \
            `xcodebuild -scheme App build-for-testing`.
            """)
    var buildCommand: String?

    @Option(
        name: .customLong("index-store"),
        help: """
            The index store the build writes, for the types, aliases, conformances and overrides the compiler \
            resolved (default: the one `swift build --enable-index-store` writes under .build; Xcode: \
            DerivedData/<App>/Index.noindex/DataStore). Without one, the tool plans from the syntax alone.
            """)
    var indexStore: String?

    @Option(
        name: .customLong("build-directory"),
        help:
            "Where the build and test commands run (default: the nearest directory above the sources with a Package.swift)."
    )
    var buildDirectory: String?

    @Flag(help: "Run the package's tests before and after the edits, and list every test whose result changed.")
    var test = false

    @Option(
        name: .customLong("test-command"),
        help:
            "The package's tests, run by /bin/sh (default: `swift test`); implies --test. `xcodebuild -scheme App test`."
    )
    var testCommand: String?

    /// The build the compile gate runs, nil with `--no-build`.
    func build(sources: [URL]) throws -> BuildCommand? {
        guard !noBuild else { return nil }
        return BuildCommand(
            shell: buildCommand ?? "swift build --build-tests --enable-index-store", directory: try directory(sources))
    }

    /// The tests the test gate runs, nil without `--test` or `--test-command`.
    func tests(sources: [URL]) throws -> BuildCommand? {
        guard test || testCommand != nil else { return nil }
        return BuildCommand(shell: testCommand ?? "swift test", directory: try directory(sources))
    }

    private func directory(_ sources: [URL]) throws -> URL {
        if let buildDirectory { return URL(fileURLWithPath: buildDirectory) }
        let packages = Set(sources.map { BuildCommand.packageDirectory(above: $0) })
        guard packages.count == 1, let package = packages.first! else {
            throw ValidationError(
                packages.count > 1
                    ? "the sources are in several packages: name the build with --build-directory (and --build-command)"
                    : "no Package.swift above the sources: name the build with --build-command and --build-directory "
                        + "(an Xcode project: `xcodebuild -scheme App build-for-testing`), or pass --no-build")
        }
        return package
    }

    /// What the gates report: the tests whose result changed (first in the report), and the
    /// build that checked the edits with what it withdrew and what the compiler's index answered.
    struct Reports {
        var tests = ""
        var build = ""
    }

    /// The compiler's index of the sources, read after the build before the edits: the store
    /// `--index-store` names, or the one the default build writes. Nil, with the reason, where
    /// there is none to read.
    private func compilerIndex(_ build: BuildCommand, sources: [URL]) -> (CompilerIndex?, String) {
        let store =
            indexStore.map { URL(fileURLWithPath: $0) }
            ?? (buildCommand == nil
                ? IndexStoreLocation.store(scratchPath: build.directory.appendingPathComponent(".build")) : nil)
        guard let store else {
            return (nil, "types from the syntax alone: no index store (name the build's with --index-store)\n")
        }
        do {
            let index = try CompilerIndex.load(storePath: store, roots: sources)
            return (index, "types, aliases, conformances and overrides from the compiler's index: \(store.path)\n")
        } catch {
            return (nil, "types from the syntax alone: the index store \(store.path) could not be read: \(error)\n")
        }
    }

    /// Runs the compile gate over `plan` (and the test gate, if asked), keeping the edits that
    /// built when `keep`. With `--no-build`, writes the plan as it is (when `keep`) and says
    /// that nothing was checked.
    func run(sources: [URL], keep: Bool, plan: (Withdrawals, CompilerIndex?) throws -> [GateFile]) throws -> Reports {
        guard let build = try build(sources: sources) else {
            if keep {
                for file in try plan([:], nil) {
                    try FileManager.default.createDirectory(
                        at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(file.text.utf8).write(to: file.url)
                }
            } else {
                _ = try plan([:], nil)
            }
            return Reports(build: "not checked: --no-build, so nothing the tool wrote was compiled\n")
        }
        let tests = try tests(sources: sources)
        let before = try tests.map { command in
            standardError("running the tests before the edits: \(command)\n")
            let result = try runShellCommand(command)
            return TestRun(output: result.output, succeeded: result.succeeded)
        }
        standardError("building the package before and after the edits: \(build)\n")
        var reports = Reports()
        // Read once, after the build before the edits wrote it (the gate's first plan follows that build).
        var index: (CompilerIndex?, String)?
        let indexed = { (withdrawn: Withdrawals) throws -> [GateFile] in
            if index == nil { index = compilerIndex(build, sources: sources) }
            return try plan(withdrawn, index?.0)
        }
        do {
            let outcome = try CompileGate(command: build).run(keep: keep, plan: indexed) { outcome in
                guard let tests, let before else { return }
                standardError("running the tests after the edits: \(tests)\n")
                let run = { () throws -> TestRun in
                    let result = try runShellCommand(tests)
                    return TestRun(output: result.output, succeeded: result.succeeded)
                }
                let after = try run()
                // A difference is run once more: a test whose result changes between two runs of the
                // same code is flaky, and says nothing of the edits.
                let again = TestRun.differences(before: before, after: after).isEmpty ? nil : try run()
                reports.tests = TestRun.report(
                    before: before, after: after, again: again, edited: !outcome.files.isEmpty, command: tests)
            }
            reports.build = (index?.1 ?? "") + outcome.report
            return reports
        } catch let error as BuildFailedBeforeEditsError {
            throw GateRefusal(description: error.description + "\n(pass --no-build to write the edits unchecked)")
        }
    }
}

/// The gate cannot run: said as it is (no usage text, as for a mistyped option).
struct GateRefusal: Error, CustomStringConvertible {
    var description: String
}

/// Writes `text` to standard error.
func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
