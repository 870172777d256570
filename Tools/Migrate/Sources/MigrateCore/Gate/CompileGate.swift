import Foundation

/// A file as the tool would leave it: a new file, or an existing one edited.
public struct GateFile: Sendable, Equatable {
    /// Where it goes.
    public var url: URL
    /// Its whole text.
    public var text: String
    /// Where each unit's text lies in it.
    public var placements: [Placement]

    public init(url: URL, text: String, placements: [Placement]) {
        self.url = url.standardizedFileURL
        self.text = text
        self.placements = placements
    }
}

/// What the compile gate did: the files that built, what it withdrew and why, how many
/// builds it took.
public struct GateOutcome: Sendable {
    /// The files of the last plan, which built (none when every unit was withdrawn).
    public var files: [GateFile]
    /// Each withdrawn unit with the compiler's message (`File.swift:12: error: …`).
    public var withdrawn: Withdrawals
    /// Builds run, the one before any edit included.
    public var builds: Int
    /// The build that checked the edits.
    public var command: BuildCommand

    /// The report's lines about the gate: the build that checked, and every withdrawn unit
    /// with the compiler's message.
    public var report: String {
        var lines = [
            "checked by the compiler: \(command), \(builds) build\(builds == 1 ? "" : "s"); "
                + "\(withdrawn.count) edit\(withdrawn.count == 1 ? "" : "s") withdrawn"
        ]
        for (unit, message) in withdrawn.sorted(by: { $0.key.description < $1.key.description }) {
            lines.append("  withdrawn  \(unit): \(message)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The package did not build before the tool changed anything: the gate cannot tell the
/// tool's errors from the package's, so nothing is written.
public struct BuildFailedBeforeEditsError: Error, CustomStringConvertible {
    public var command: BuildCommand
    public var errors: [CompilerError]
    public var output: String

    public var description: String {
        let shown = errors.prefix(5).map { "  " + $0.description }
        let tail = output.split(separator: "\n").suffix(errors.isEmpty ? 10 : 0).map { "  " + $0 }
        return (["the package does not build before any edit (\(command)); nothing was written:"] + shown + tail)
            .joined(separator: "\n")
    }
}

/// Builds what the tool wrote with the package's own build, and withdraws each unit the
/// compiler rejects, with the units that depend on it, until the package builds.
///
/// The package must build first. Each round writes the plan's files, builds, and withdraws:
/// the units whose lines hold an error; where an error lies in a file the plan wrote but in
/// no unit's lines (a generated file's helpers), every unit of that file; where it lies in a
/// file the plan did not write, every unit. The planners are asked again with what was
/// withdrawn, so what depended on a withdrawn unit is planned without it. The package is never
/// left edited and not building: a plan with nothing left restores the originals.
public struct CompileGate: Sendable {
    /// The package's build, run before the edits and after each round of them.
    public var command: BuildCommand
    /// What runs it: the shell by default, a stand-in in the gate's tests.
    public var runner: BuildRunner

    public init(command: BuildCommand, runner: @escaping BuildRunner = runShellCommand) {
        self.command = command
        self.runner = runner
    }

    /// Runs the gate over `plan`, which returns the files to write given what was withdrawn
    /// so far. With `keep`, the files of the last plan stay written; otherwise every file is
    /// restored as it was (a dry run that was still checked). `checked` runs while the files
    /// that built are written (the test gate runs the package's tests there).
    public func run(
        keep: Bool, plan: (Withdrawals) throws -> [GateFile], checked: (GateOutcome) throws -> Void = { _ in }
    ) throws -> GateOutcome {
        let before = try runner(command)
        guard before.succeeded else {
            throw BuildFailedBeforeEditsError(command: command, errors: before.errors, output: before.output)
        }
        var originals = Originals()
        var withdrawn: Withdrawals = [:]
        var builds = 1
        var succeeded = false
        defer {
            if !(keep && succeeded) { originals.restore() }
        }
        while true {
            let files = try plan(withdrawn)
            originals.restore()
            try originals.write(files)
            var result: BuildResult?
            if !files.isEmpty {
                result = try runner(command)
                builds += 1
            }
            guard let result, !result.succeeded else {
                let outcome = GateOutcome(files: files, withdrawn: withdrawn, builds: builds, command: command)
                try checked(outcome)
                succeeded = true
                return outcome
            }
            var new = Self.rejected(result.errors, in: files, output: result.output).filter { withdrawn[$0.key] == nil }
            if new.isEmpty {
                // The errors are in units withdrawn already, which the plan wrote anyway: withdraw
                // all it wrote rather than loop.
                let message =
                    result.errors.first.map { describe($0, files) } ?? "the build failed: \(lastLines(result))"
                for unit in files.flatMap(\.placements).map(\.unit) where withdrawn[unit] == nil { new[unit] = message }
                if new.isEmpty { throw GateError.planIgnoresWithdrawals(message) }
            }
            withdrawn.merge(new) { old, _ in old }
        }
    }

    /// The units to withdraw for these errors: those whose lines hold one; else (no error in
    /// any unit's lines) every unit of a written file that holds one; else every unit.
    static func rejected(_ errors: [CompilerError], in files: [GateFile], output: String) -> Withdrawals {
        var byPath: [String: GateFile] = [:]
        for file in files { byPath[canonicalPath(file.url.path)] = file }
        var inUnits: Withdrawals = [:]
        var inFiles: Withdrawals = [:]
        for error in errors {
            guard let file = byPath[error.path] else { continue }
            let holding = file.placements.filter { $0.lines.contains(error.line) }
            for placement in holding where inUnits[placement.unit] == nil {
                inUnits[placement.unit] = describe(error, files)
            }
            if holding.isEmpty {
                for placement in file.placements where inFiles[placement.unit] == nil {
                    inFiles[placement.unit] = describe(error, files)
                }
            }
        }
        if !inUnits.isEmpty { return inUnits }
        if !inFiles.isEmpty { return inFiles }
        let message =
            errors.first.map { describe($0, files) } ?? "the build failed: "
            + output.split(separator: "\n").suffix(3).joined(separator: " / ")
        var all: Withdrawals = [:]
        for placement in files.flatMap(\.placements) { all[placement.unit] = message }
        return all
    }
}

/// The compile gate could not reach a package that builds.
public enum GateError: Error, CustomStringConvertible {
    /// The build failed in units withdrawn already: the planners wrote them anyway.
    case planIgnoresWithdrawals(String)

    public var description: String {
        switch self {
        case .planIgnoresWithdrawals(let message):
            "the tool wrote edits it had withdrawn, and the package does not build with them (\(message)); "
                + "every file was restored"
        }
    }
}

/// `File.swift:12: error: …`, the path shortened to the file's name where the gate wrote it.
private func describe(_ error: CompilerError, _ files: [GateFile]) -> String {
    let name = error.path.split(separator: "/").last.map(String.init) ?? error.path
    return "\(name):\(error.line): error: \(error.message)"
}

private func lastLines(_ result: BuildResult) -> String {
    result.output.split(separator: "\n").suffix(3).joined(separator: " / ")
}

/// The files' texts before the gate wrote them (nil: the file did not exist), to put back.
private struct Originals {
    private var texts: [URL: String?] = [:]

    /// Writes `files`, remembering what each replaced.
    mutating func write(_ files: [GateFile]) throws {
        for file in files {
            if texts[file.url] == nil {
                texts[file.url] = .some(try? String(contentsOf: file.url, encoding: .utf8))
            }
            try FileManager.default.createDirectory(
                at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: file.url)
        }
    }

    /// Puts every file written back as it was (a new file removed).
    func restore() {
        for (url, text) in texts {
            if let text {
                try? Data(text.utf8).write(to: url)
            } else {
                try? FileManager.default.removeItem(at: url)
            }
        }
    }
}
