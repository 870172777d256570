import Foundation
import Testing

/// The `futurebridge-migrate` executable `swift test` built, next to the test bundle.
let migrateExecutable: URL? = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
    for _ in 0..<5 {
        let candidate = directory.appendingPathComponent("futurebridge-migrate")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory.deleteLastPathComponent()
    }
    return nil
}()

/// Runs the executable; returns its status, standard output and standard error. With
/// `noBuild`, passes `--no-build`: the sources of most tests are loose files in a temporary
/// directory, with no package to build (the gate's own tests build one).
func run(_ arguments: [String], noBuild: Bool = true) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    guard let migrateExecutable else { throw CocoaError(.fileNoSuchFile) }
    process.executableURL = migrateExecutable
    process.arguments = arguments + (noBuild ? ["--no-build"] : [])
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outputData, as: UTF8.self),
        String(decoding: errorData, as: UTF8.self)
    )
}

@Suite("The command", .enabled(if: migrateExecutable != nil, "the futurebridge-migrate executable was not found"))
struct CommandTests {
    @Test(
        "Dry run prints a diff; --write writes; a second --write has nothing to do; an existing file is never replaced")
    func dryRunThenWrite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migrate-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let source = """
            final class Client: Sendable {
                func ping(completion: @escaping @Sendable (Error?) -> Void) { completion(nil) }
            }
            """
        try Data(source.utf8).write(to: directory.appendingPathComponent("Client.swift"))
        let generated = directory.appendingPathComponent("Client+Async.swift")

        let dryRun = try run([directory.path])
        #expect(dryRun.status == 0)
        #expect(dryRun.output.hasPrefix("--- /dev/null\n+++ "))
        #expect(dryRun.output.contains("+    nonisolated(nonsending) func ping() async throws {"))
        #expect(dryRun.errors.contains("1 completion-handler function: 1 generated"))
        #expect(!FileManager.default.fileExists(atPath: generated.path))

        let write = try run([directory.path, "--write"])
        #expect(write.status == 0)
        #expect(
            try String(contentsOf: generated, encoding: .utf8)
                == dryRun.output.split(separator: "\n").dropFirst(3)
                .map { String($0.dropFirst()) + "\n" }.joined())

        // The async form exists now: nothing to generate.
        let again = try run([directory.path, "--write", "--summary"])
        #expect(again.status == 0)
        #expect(again.errors.contains("0 generated"))

        // A file in the way (not an async form) is never replaced.
        try Data("// mine\n".utf8).write(to: generated)
        let refused = try run([directory.path, "--write"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("refusing to overwrite"))
        #expect(try String(contentsOf: generated, encoding: .utf8) == "// mine\n")
    }
}
