import Foundation
import MigrateCore
import Testing

/// The shims that call a handler that is not `@Sendable` from a task in the function's
/// isolation, compiled as an app target would compile them: Swift 6 mode, warnings as
/// errors, with and without the settings of a new Xcode 26 app target (main-actor default
/// isolation, `NonisolatedNonsendingByDefault`, `InferIsolatedConformances`). The data-race
/// checks run on SIL, so each program is compiled to SIL, not only type-checked. Runs
/// against the modules of the build that runs the tests (``BuiltModules``): skipped without
/// them, failed without them when `CI` is set.
@Suite("Call sites: task shims compiled with app settings")
struct CallSiteIsolationCompileTests {
    static let settings: [[String]] = [
        [],
        ["-default-isolation", "MainActor"],
        [
            "-enable-upcoming-feature", "NonisolatedNonsendingByDefault",
            "-enable-upcoming-feature", "InferIsolatedConformances",
        ],
        [
            "-default-isolation", "MainActor",
            "-enable-upcoming-feature", "NonisolatedNonsendingByDefault",
            "-enable-upcoming-feature", "InferIsolatedConformances",
        ],
    ]

    /// The rewritten function examples whose shim is a task, as the tool writes them now, and
    /// the settings each compiles with: an example of a module isolated to the main actor by
    /// default only with `-default-isolation MainActor`.
    static func programs() throws -> [(name: String, text: String, settings: [[String]])] {
        try FunctionRuleCatalog.examples.compactMap { rule, example in
            guard case .rewritten(let expected) = example.after, expected.contains("Task {") else { return nil }
            let byDefault = example.options.defaultIsolation != nil
            let settings = byDefault ? Self.settings.filter { $0.contains("MainActor") } : Self.settings
            return (
                "\(rule): \(example.name)", try CallSiteFixtures.rewrite(example.before, options: example.options).text,
                settings
            )
        }
    }

    /// The compiler's exit status and diagnostics for `text`, compiled to SIL with `flags`.
    static func compile(_ text: String, flags: [String]) throws -> (status: Int32, output: String) {
        try BuiltModules.withDirectory { directory in
            let file = directory.appendingPathComponent("Program.swift")
            try ("import CallSiteTraces\nimport Dispatch\nimport FutureBridge\n\n" + text).write(
                to: file, atomically: true, encoding: .utf8)
            return try BuiltModules.swiftc(["-emit-sil", "-o", "/dev/null"] + flags + [file.path])
        }
    }

    @Test(
        "Each task shim compiles in Swift 6 mode, with and without the Xcode 26 app settings",
        .enabled(if: BuiltModules.enabled))
    func compiles() throws {
        let programs = try Self.programs()
        #expect(!programs.isEmpty)
        #expect(programs.contains { $0.settings.count == 2 })
        // A shim on a plain actor's executor, not only on the main actor.
        #expect(programs.contains { $0.text.contains("\nactor ") })
        for program in programs {
            for flags in program.settings {
                let result = try Self.compile(program.text, flags: flags)
                #expect(result.status == 0, "\(program.name) \(flags): \(result.output)")
            }
        }
    }

    /// The check can fail: the same shim in a detached task (which does not inherit the
    /// isolation) sends the handler out of it, and the compiler says so.
    @Test("A detached task in the shim does not compile", .enabled(if: BuiltModules.enabled))
    func detachedFails() throws {
        let program = try #require(try Self.programs().first)
        let detached = program.text.replacingOccurrences(of: "Task {", with: "Task.detached {")
        let result = try Self.compile(detached, flags: [])
        #expect(result.status != 0)
        #expect(result.output.contains("data race"), "\(result.output)")
    }

    /// The check can fail for the default isolation too: the shim the tool writes for a
    /// function of a module isolated to the main actor by default (a task, no attribute)
    /// sends the handler out of a nonisolated function when compiled without that default.
    @Test(
        "A main-actor-by-default shim compiled without the default does not compile", .enabled(if: BuiltModules.enabled)
    )
    func defaultIsolationMatters() throws {
        let program = try #require(try Self.programs().first { $0.settings.count == 2 })
        let result = try Self.compile(program.text, flags: [])
        #expect(result.status != 0)
        #expect(result.output.contains("data race") || result.output.contains("sending"), "\(result.output)")
    }
}
