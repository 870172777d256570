import Foundation
import MigrateCore
import Testing

/// The tool on real codebases of other styles than GRDB's, read from the checkouts
/// SwiftPM made for this package: an event-loop library whose modules use one another
/// (swift-nio), and an HTTP client that ships async forms of its own (AsyncHTTPClient).
/// Their reports are golden files; GRDB's forms are also compiled and called (GRDBTests).
@Suite("Real codebases")
struct RealCodebaseTests {
    static var nio: URL? { Paths.checkout("swift-nio/Sources", containing: "NIOCore/EventLoop.swift") }
    static var asyncHTTPClient: URL? {
        Paths.checkout("async-http-client/Sources", containing: "AsyncHTTPClient/HTTPClient.swift")
    }

    static func inputs(_ root: URL, _ module: String) throws -> [SourceInput] {
        try sourceInputs(under: root.appendingPathComponent(module))
    }

    @Test("swift-nio: NIOPosix read with NIOCore, whose EventLoopGroup has the async shutdown already")
    func nioPosix() throws {
        let root = try #require(Self.nio, "swift-nio's checkout was not found")
        let options = MigrationOptions(publicOnly: true, imports: ["NIOPosix"])
        let alone = Migrator(options: options).migrate(try Self.inputs(root, "NIOPosix"))
        let withCore = Migrator(options: options).migrate(
            try Self.inputs(root, "NIOPosix"), context: try Self.inputs(root, "NIOCore"))
        let shutdown = "MultiThreadedEventLoopGroup.shutdownGracefully(queue:_:)"
        // Alone, the sources cannot tell: the async form would duplicate NIOCore's.
        #expect(alone.entries.first { $0.function == shutdown }?.outcome == .generated("(Error?) -> Void"))
        #expect(
            withCore.entries.first { $0.function == shutdown }?.outcome
                == .skipped(.hasAsyncSibling, "`EventLoopGroup.shutdownGracefully() async`"))
        try Golden.check(
            withCore.report(mode: .asyncForms, module: "NIOPosix"),
            against: Paths.golden.appendingPathComponent("NIOPosix.public.txt"))
    }

    @Test("swift-nio: NIOCore's public API")
    func nioCore() throws {
        let root = try #require(Self.nio, "swift-nio's checkout was not found")
        let result = Migrator(options: MigrationOptions(publicOnly: true, imports: ["NIOCore"])).migrate(
            try Self.inputs(root, "NIOCore"))
        try Golden.check(
            result.report(mode: .asyncForms, module: "NIOCore"),
            against: Paths.golden.appendingPathComponent("NIOCore.public.txt"))
    }

    @Test("AsyncHTTPClient: its own async forms are not duplicated; its delegates are not wrapped")
    func asyncHTTPClient() throws {
        let root = try #require(Self.asyncHTTPClient, "AsyncHTTPClient's checkout was not found")
        let nio = try #require(Self.nio, "swift-nio's checkout was not found")
        let result = Migrator(options: MigrationOptions(publicOnly: true, imports: ["AsyncHTTPClient"])).migrate(
            try Self.inputs(root, "AsyncHTTPClient"),
            context: try Self.inputs(nio, "NIOCore") + Self.inputs(nio, "NIOPosix"))
        #expect(
            result.entries.first { $0.function == "HTTPClient.shutdown(queue:_:)" }?.outcome
                == .skipped(.hasAsyncSibling, "`HTTPClient.shutdown() async`"))
        try Golden.check(
            result.report(mode: .asyncForms, module: "AsyncHTTPClient"),
            against: Paths.golden.appendingPathComponent("AsyncHTTPClient.public.txt"))
    }
}
