import Dispatch
import Foundation
import MigrateCore
import Testing

/// Runs `body` on a Dispatch thread and awaits it: the builds it waits for take minutes, and a
/// thread of the cooperative pool blocked that long would starve the suites that run beside it.
private func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

/// The gates run by the command on a real package: built with `swift build`, tested with
/// `swift test`.
@Suite(
    "The command's compile and test gates", .serialized,
    .enabled(if: migrateExecutable != nil, "the futurebridge-migrate executable was not found"))
struct GateCommandTests {
    /// A package with a callback module and an XCTest target, depending on FutureBridge by path.
    /// One of its forms does not compile, for what the sources of the module cannot tell: the
    /// type it extends is isolated to the main actor by a module the tool was not given.
    /// Made once: the suite's tests run one after the other, each leaving it as it found it,
    /// and the later ones build it again incrementally.
    static let package = Result { try makePackage() }

    private static func makePackage() throws -> URL {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("gate-package-\(UUID().uuidString)")
        let root = Paths.package.deletingLastPathComponent().deletingLastPathComponent()
        let files = [
            "Package.swift": """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Net",
                platforms: [.macOS(.v10_15)],
                dependencies: [.package(name: "FutureBridge", path: "\(root.path)")],
                targets: [
                    .target(name: "Model"),
                    .target(name: "Net", dependencies: ["Model", .product(name: "FutureBridge", package: "FutureBridge")]),
                    .testTarget(name: "NetTests", dependencies: ["Net"]),
                ]
            )
            """,
            "Sources/Net/Client.swift": """
            public final class Job {
                public private(set) var cancelled = false
                public init() {}
                public func cancel() { cancelled = true }
            }

            /// Not Sendable: the job it returns shares its region.
            public final class Client {
                public init() {}

                public func fetch(_ id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) -> Job {
                    completion(.success("\\(id)"))
                    return Job()
                }
            }
            """,
            "Sources/Model/Screen.swift": """
            @MainActor
            open class Screen {
                public init() {}
            }
            """,
            "Sources/Net/Screen+Refresh.swift": """
            import Model

            extension Screen {
                public func refresh(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
                    completion(.success(1))
                }
            }
            """,
            "Sources/Net/Request.swift": """
            open class Request: @unchecked Sendable {
                public init() {}

                @discardableResult
                open func response(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Self {
                    completion(.success(1))
                    return self
                }
            }

            public final class DataRequest: Request, @unchecked Sendable {
                @discardableResult
                public override func response(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) -> Self {
                    completion(.success(2))
                    return self
                }
            }
            """,
            "Tests/NetTests/NetTests.swift": """
            import Net
            import XCTest

            final class NetTests: XCTestCase {
                func testFetch() {
                    let done = expectation(description: "fetched")
                    _ = Client().fetch(3) { result in
                        XCTAssertEqual(try? result.get(), "3")
                        done.fulfill()
                    }
                    wait(for: [done], timeout: 10)
                }
            }
            """,
        ]
        for (path, text) in files {
            let url = package.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return package
    }

    @Test(
        "A form the compiler rejects is withdrawn with its message; the rest is written, builds and passes the tests")
    func withdrawsAndKeeps() async throws {
        let package = try Self.package.get()
        let sources = package.appendingPathComponent("Sources/Net").path
        let generated = package.appendingPathComponent("Sources/Net/Request+Async.swift")
        defer {
            for name in ["Request+Async.swift", "Client+Async.swift"] {
                try? FileManager.default.removeItem(at: package.appendingPathComponent("Sources/Net/" + name))
            }
        }

        let dryRun = try await offThePool { try run([sources, "--one-shot", "response", "--test"], noBuild: false) }
        #expect(dryRun.status == 0, "\(dryRun.errors)")
        #expect(
            dryRun.errors.contains(
                "skipped    Screen+Refresh.swift:4  Screen.refresh(completion:)  [rejected by the compiler] "
                    + "Screen+Refresh+Async.swift:"))
        #expect(dryRun.errors.contains("call to main actor-isolated instance method 'refresh(completion:)'"))
        #expect(dryRun.errors.contains("generated  Request.swift:5  Request.response(completion:)"))
        #expect(
            dryRun.errors.contains(
                "skipped    Request.swift:13  DataRequest.response(completion:)  [covered by the overridden method's "
                    + "form] `Request.response(completion:)`"))
        #expect(dryRun.errors.contains("checked by the compiler: `swift build --build-tests --enable-index-store` in "))
        #expect(dryRun.errors.contains("1 edit withdrawn"))
        #expect(dryRun.errors.contains("types, aliases, conformances and overrides from the compiler's index: "))
        // The test gate: the package's one test, before and after.
        #expect(dryRun.errors.hasPrefix("running the tests before the edits"))
        #expect(dryRun.errors.contains("0 of 1 changed their result"))
        // The form that wires a handle of a receiver that is not Sendable builds, and is kept.
        #expect(dryRun.output.contains("let handle = UncheckedCancelHandle(cancellable)"))
        #expect(dryRun.output.contains("promise.cancelOnRequest { handle.value.cancel() }"))
        #expect(!FileManager.default.fileExists(atPath: generated.path), "a dry run leaves no file")

        let written = try await offThePool {
            try run([sources, "--one-shot", "response", "--write", "--summary"], noBuild: false)
        }
        #expect(written.status == 0, "\(written.errors)")
        let text = try String(contentsOf: generated, encoding: .utf8)
        #expect(text.contains("extension Request {"))
        #expect(!text.contains("extension DataRequest"))
        #expect(!FileManager.default.fileExists(atPath: sources + "/Screen+Refresh+Async.swift"))
        let build = try await offThePool {
            try runShellCommand(BuildCommand(shell: "swift build --build-tests", directory: package))
        }
        #expect(build.succeeded, "\(build.output.suffix(2_000))")
    }

    @Test(
        "A package that does not build before is refused, and nothing is written; --no-build says nothing was checked")
    func refusesBrokenPackage() async throws {
        let sources = try Self.package.get().appendingPathComponent("Sources/Net")
        let broken = sources.appendingPathComponent("Broken.swift")
        try Data("let broken: Int = \"\"".utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }

        let refused = try await offThePool { try run([sources.path, "--write"], noBuild: false) }
        #expect(refused.status != 0)
        #expect(refused.errors.contains("the package does not build before any edit"))
        #expect(refused.errors.contains("Broken.swift:1:"))
        #expect(!FileManager.default.fileExists(atPath: sources.appendingPathComponent("Client+Async.swift").path))

        let unchecked = try await offThePool { try run([sources.path]) }
        #expect(unchecked.status == 0)
        #expect(unchecked.errors.contains("not checked: --no-build, so nothing the tool wrote was compiled"))
    }

    @Test("Loose sources with no package above them: the tool asks for the build to run")
    func asksForBuild() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-loose-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("func f(completion: @escaping @Sendable (Error?) -> Void) {}".utf8).write(
            to: directory.appendingPathComponent("F.swift"))
        let result = try run([directory.path], noBuild: false)
        #expect(result.status != 0)
        #expect(result.errors.contains("no Package.swift above the sources: name the build with --build-command"))
    }
}
