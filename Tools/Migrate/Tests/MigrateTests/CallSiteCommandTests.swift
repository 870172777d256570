import Foundation
import Testing

@Suite("The calls command", .enabled(if: migrateExecutable != nil, "the futurebridge-migrate executable was not found"))
struct CallSiteCommandTests {
    @Test("calls: a dry run prints a diff that git applies; --write edits the same; a second run finds nothing")
    func dryRunThenWrite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migrate-calls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = directory.appendingPathComponent("App")
        let api = directory.appendingPathComponent("API")
        for folder in [app, api] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try Data(
            """
            public final class Client: Sendable {
                public func ping(completion: @escaping @Sendable ((any Error)?) -> Void) { completion(nil) }
            }

            """.utf8
        ).write(to: api.appendingPathComponent("Client.swift"))
        let source = """
            func refresh(client: Client) async {
                // Ping first.
                client.ping { error in  // once
                    if let error {
                        print("failed: \\(error)")
                        return
                    }
                    print("pong")  // done
                }
            }

            func later(client: Client) {
                client.ping { _ in }
            }

            """
        let file = app.appendingPathComponent("Refresh.swift")
        try Data(source.utf8).write(to: file)

        let dryRun = try run(["calls", app.path, "--context", api.path])
        #expect(dryRun.status == 0)
        #expect(dryRun.output.hasPrefix("--- \(file.path)\n+++ \(file.path)\n@@ -1,12 +1,12 @@\n"))
        #expect(dryRun.errors.contains("2 call sites with an async counterpart: 1 converted (50%), 1 left alone"))
        // In synchronous code, the reason given is the one that would keep the call in async code.
        #expect(dryRun.errors.contains("1  handler not in a known pattern:\n      Refresh.swift:13\n"))
        #expect(dryRun.errors.contains("(in synchronous code)"))
        #expect(try String(contentsOf: file, encoding: .utf8) == source)

        let written = try run(["calls", app.path, "--context", api.path, "--write", "--summary"])
        #expect(written.status == 0)
        #expect(written.output.isEmpty)
        let expected = """
            func refresh(client: Client) async {
                // Ping first.
                // once
                do {
                    try await client.ping()
                    print("pong")  // done
                } catch {
                    print("failed: \\(error)")
                }
            }

            func later(client: Client) {
                client.ping { _ in }
            }

            """
        #expect(try String(contentsOf: file, encoding: .utf8) == expected)

        // The diff, applied to the original, gives the same text.
        try Data(source.utf8).write(to: file)
        let patch = directory.appendingPathComponent("calls.diff")
        try Data(dryRun.output.utf8).write(to: patch)
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "apply", "-p0", "--unsafe-paths", "--directory=/", patch.path]
        git.currentDirectoryURL = URL(fileURLWithPath: "/")
        try git.run()
        git.waitUntilExit()
        #expect(git.terminationStatus == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == expected)

        let again = try run(["calls", app.path, "--context", api.path, "--summary"])
        #expect(again.errors.contains("1 call site with an async counterpart: 0 converted (0%), 1 left alone"))
    }

    /// A target with `.defaultIsolation(MainActor.self)` in its package's manifest: its
    /// unannotated async function is on the main actor, the handler's hop disappears; with
    /// `--default-isolation nonisolated` it stays, as `MainActor.run`; a bad value is refused.
    @Test("calls: the manifest's default isolation is read; --default-isolation overrides it")
    func defaultIsolationFromManifest() throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-isolation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: package) }
        let app = package.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data(
            """
            // swift-tools-version: 6.2
            import PackageDescription

            let package = Package(
                name: "App", targets: [.target(name: "App", swiftSettings: [.defaultIsolation(MainActor.self)])])

            """.utf8
        ).write(to: package.appendingPathComponent("Package.swift"))
        try Data(
            """
            import Dispatch

            final class Client: Sendable {
                func ping(completion: @escaping @Sendable ((any Error)?) -> Void) { completion(nil) }
                func ping() async throws {}
            }

            func refresh(client: Client) async {
                client.ping { error in
                    DispatchQueue.main.async {
                        if let error {
                            print("failed: \\(error)")
                            return
                        }
                        print("pong")
                    }
                }
            }

            """.utf8
        ).write(to: app.appendingPathComponent("Refresh.swift"))

        let detected = try run(["calls", app.path])
        #expect(detected.status == 0)
        #expect(detected.output.contains("+        try await client.ping()\n+        print(\"pong\")\n"))
        #expect(!detected.output.contains("MainActor.run"))
        let overridden = try run(["calls", app.path, "--default-isolation", "nonisolated"])
        #expect(overridden.output.contains("MainActor.run"))
        let refused = try run(["calls", app.path, "--default-isolation", "Main"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("--default-isolation takes MainActor or nonisolated, not Main"))
    }
}
