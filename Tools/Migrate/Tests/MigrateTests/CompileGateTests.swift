import Foundation
import MigrateCore
import Testing

/// The compile gate's rounds, with a stand-in compiler: every line that holds `BROKEN` in a
/// Swift file of the directory is an error there, and so is every line of a file named in
/// `broken` outside the gate's files.
struct FakeCompiler {
    let directory: URL
    var brokenFiles: [String] = []

    var runner: BuildRunner {
        { [directory, brokenFiles] _ in
            var output = ""
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in files.sorted() where name.hasSuffix(".swift") {
                let path = directory.appendingPathComponent(name).path
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains("BROKEN") || brokenFiles.contains(name) {
                    output += "\(path):\(offset + 1):5: error: cannot find 'BROKEN' in scope\n"
                }
            }
            return BuildResult(succeeded: output.isEmpty, output: "Compiling…\n" + output)
        }
    }
}

@Suite("The compile gate")
struct CompileGateTests {
    let directory: URL
    let gate: (FakeCompiler) -> CompileGate

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let command = BuildCommand(shell: "swift build", directory: directory)
        gate = { CompileGate(command: command, runner: $0.runner) }
    }

    /// A new file of three units, two lines each; the units in `broken` hold an error, which
    /// the plan leaves out once they are withdrawn.
    private func plan(broken: Set<String>, file: String = "New.swift") -> (Withdrawals) -> [GateFile] {
        { withdrawn in
            var lines: [String] = []
            var placements: [Placement] = []
            for name in ["a", "b", "c"] where withdrawn[.form(function: name)] == nil {
                placements.append(Placement(unit: .form(function: name), lines: lines.count + 1...lines.count + 2))
                lines += ["func \(name)() async {", broken.contains(name) ? "    BROKEN" : "}"]
            }
            guard !lines.isEmpty else { return [] }
            return [
                GateFile(
                    url: directory.appendingPathComponent(file), text: lines.joined(separator: "\n"),
                    placements: placements)
            ]
        }
    }

    private func contents(_ name: String) -> String? {
        try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("Each rejected unit is withdrawn with the compiler's message and line; the others stay, written")
    func withdrawsRejectedUnits() throws {
        let outcome = try gate(FakeCompiler(directory: directory)).run(keep: true, plan: plan(broken: ["b"]))
        #expect(outcome.withdrawn == [.form(function: "b"): "New.swift:4: error: cannot find 'BROKEN' in scope"])
        #expect(outcome.builds == 3)
        #expect(outcome.files.flatMap(\.placements).map(\.unit) == [.form(function: "a"), .form(function: "c")])
        #expect(contents("New.swift") == "func a() async {\n}\nfunc c() async {\n}")
        #expect(outcome.report.contains("withdrawn  the async form of b: New.swift:4: error: cannot find 'BROKEN'"))
    }

    @Test("A dry run is checked too, and leaves every file as it was")
    func dryRunRestores() throws {
        try Data("old".utf8).write(to: directory.appendingPathComponent("Old.swift"))
        let outcome = try gate(FakeCompiler(directory: directory)).run(keep: false) { withdrawn in
            plan(broken: ["a"])(withdrawn)
                + [GateFile(url: directory.appendingPathComponent("Old.swift"), text: "edited", placements: [])]
        }
        #expect(outcome.withdrawn.keys.sorted { "\($0)" < "\($1)" } == [.form(function: "a")])
        #expect(contents("New.swift") == nil)
        #expect(contents("Old.swift") == "old")
    }

    @Test("An error in a written file but in no unit's lines withdraws that file's units")
    func errorOutsideUnits() throws {
        let outcome = try gate(FakeCompiler(directory: directory)).run(keep: true) { withdrawn in
            plan(broken: [])(withdrawn).map { file in
                var file = file
                file.text = "BROKEN helper\n" + file.text
                file.placements = file.placements.map {
                    Placement(unit: $0.unit, lines: $0.lines.lowerBound + 1...$0.lines.upperBound + 1)
                }
                return file
            }
        }
        #expect(
            Set(outcome.withdrawn.keys)
                == Set<EditUnit>([.form(function: "a"), .form(function: "b"), .form(function: "c")]))
        #expect(outcome.files.isEmpty)
        #expect(contents("New.swift") == nil)
    }

    @Test("An error in a file the tool did not write withdraws every unit: the package is left as it was")
    func errorElsewhere() throws {
        var compiler = FakeCompiler(directory: directory)
        compiler.brokenFiles = ["Caller.swift"]
        let outcome = try gate(compiler).run(keep: true) { withdrawn in
            let files = plan(broken: [])(withdrawn)
            // The caller breaks while any unit is written.
            let caller = directory.appendingPathComponent("Caller.swift")
            if files.isEmpty { try? FileManager.default.removeItem(at: caller) } else { try? Data().write(to: caller) }
            return files
        }
        #expect(outcome.withdrawn.count == 3)
        #expect(outcome.withdrawn[.form(function: "a")]?.hasPrefix("Caller.swift:1: error: ") == true)
        #expect(contents("New.swift") == nil)
    }

    @Test("A package that does not build before the edits is not touched")
    func brokenBefore() throws {
        try Data("BROKEN".utf8).write(to: directory.appendingPathComponent("Broken.swift"))
        #expect {
            try gate(FakeCompiler(directory: directory)).run(keep: true, plan: plan(broken: []))
        } throws: { error in
            "\(error)".contains("does not build before any edit") && "\(error)".contains("Broken.swift:1:5")
        }
        #expect(contents("New.swift") == nil)
    }

    @Test("Compiler errors are read with their file, line and message; notes and warnings are not errors")
    func parsesErrors() {
        let output = """
            [3/9] Compiling App Client.swift
            /tmp/a:b/App/Client+Async.swift:12:9: error: cannot find 'x' in scope
            /tmp/a:b/App/Client+Async.swift:12:9: error: cannot find 'x' in scope
            /tmp/App/Client.swift:3:1: warning: var never mutated
            /tmp/App/Client.swift:4:1: note: declared here
            error: fatalError
            """
        #expect(
            CompilerError.parse(output) == [
                CompilerError(
                    path: "/tmp/a:b/App/Client+Async.swift", line: 12, column: 9, message: "cannot find 'x' in scope")
            ])
    }

    @Test("Test results are read from XCTest (Linux and Apple) and Swift Testing output, by name")
    func parsesTestResults() {
        let before = TestRun(
            output: """
                Test Case 'CacheTests.testStore' started at 2026-11-28 07:00:00.000
                Test Case 'CacheTests.testStore' passed (0.002 seconds)
                Test Case '-[CacheTests.CacheTests testEvict]' failed (0.010 seconds)
                Test Case 'CacheTests.testSkip' skipped (0.000 seconds)
                ✔ Test loads() passed after 0.001 seconds.
                ✘ Test "Saves a row" recorded an issue at Rows.swift:12:5: Expectation failed
                ✘ Test "Saves a row" failed after 0.002 seconds with 1 issue.
                ✘ Test run with 2 tests failed after 0.003 seconds with 1 issue.
                """, succeeded: false)
        #expect(
            before.results == [
                "CacheTests.testStore": .passed, "-[CacheTests.CacheTests testEvict]": .failed,
                "CacheTests.testSkip": .skipped, "loads()": .passed, "\"Saves a row\"": .failed,
            ])
        let after = TestRun(results: ["CacheTests.testStore": .failed, "loads()": .passed], succeeded: false)
        let differences = TestRun.differences(before: before, after: after).map {
            "\($0.name) \($0.before) \($0.after)"
        }
        #expect(
            differences == [
                "\"Saves a row\" failed missing", "-[CacheTests.CacheTests testEvict] failed missing",
                "CacheTests.testSkip skipped missing", "CacheTests.testStore passed failed",
            ])
    }

    @Test(
        "A test whose result changes between two runs after the edits is flaky; with no edit kept, it is the tests' own"
    )
    func flakyTests() {
        let command = BuildCommand(shell: "swift test", directory: directory)
        let before = TestRun(results: ["A.testX": .failed, "A.testY": .passed], succeeded: false)
        let after = TestRun(results: ["A.testX": .passed, "A.testY": .failed], succeeded: false)
        let again = TestRun(results: ["A.testX": .failed, "A.testY": .failed], succeeded: false)
        let report = TestRun.report(before: before, after: after, again: again, command: command)
        #expect(
            report.contains(
                "changed  A.testX: failed before, passed after (flaky: failed on a second run after the edits)"))
        #expect(report.contains("changed  A.testY: passed before, failed after\n"))
        #expect(report.hasPrefix("tests (`swift test` in "))
        #expect(report.contains(": 2 of 2 changed their result\n"))
        #expect(
            TestRun.report(before: before, after: after, edited: false, command: command).contains("no edit was kept"))
    }
}
