import Foundation
import MigrateCore
import Testing

/// The reader of the compiler's index store, on a package built here (``IndexedPackage``).
@Suite("The compiler's index", .timeLimit(.minutes(5)))
struct CompilerIndexTests {
    @Test("The library is found beside the toolchain's swift, or where the environment says")
    func library() throws {
        let swift = try #require(
            ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map {
                URL(fileURLWithPath: String($0)).appendingPathComponent("swift")
            }.first { FileManager.default.isExecutableFile(atPath: $0.path) })
        let toolchainPath = swift.resolvingSymlinksInPath().deletingLastPathComponent().path
        let found = try #require(CompilerIndex.libraryPath(environment: ["PATH": toolchainPath]))
        #expect(found.hasSuffix("/lib/libIndexStore.so") || found.hasSuffix("/lib/libIndexStore.dylib"))
        try CompilerIndex.checkLibrary(at: found)
        let given = ["PATH": toolchainPath, "FUTUREBRIDGE_MIGRATE_LIBINDEXSTORE": "/nowhere/libIndexStore.so"]
        #expect(CompilerIndex.libraryPath(environment: given) == "/nowhere/libIndexStore.so")
        #expect(CompilerIndex.libraryPath(environment: ["PATH": "/nowhere"]) == nil)
        #expect {
            try CompilerIndex.checkLibrary(at: "/nowhere/libIndexStore.so")
        } throws: { error in
            "\(error)".contains("cannot open /nowhere/libIndexStore.so")
        }
    }

    @Test("A function's signature comes back with its type aliases, generic ones too, expanded")
    func resolvedSignatures() throws {
        let index = try IndexedPackage.require().index
        let load = try #require(
            index.resolvedSignature(
                file: "Net/Net.swift", line: IndexedPackage.line(of: "func load<T"), genericNames: [["T"]]))
        #expect(load.demangled.contains("Swift.Result<A, Net.NetError>"))
        #expect(load.parameters.map(\.label) == [nil, "completion"])
        #expect(load.parameters.map(\.type) == ["String", "@Sendable (Result<T, NetError>) -> ()"])
        let session = try #require(
            index.resolvedSignature(file: "Net/Net.swift", line: IndexedPackage.line(of: "func request(_ url")))
        #expect(session.parameters.last?.type == "@Sendable (Data?, URLResponse?, Error?) -> ()")
        let cache = try #require(
            index.resolvedSignature(file: "Net/Net.swift", line: IndexedPackage.line(of: "func request(_ key")))
        #expect(cache.parameters.last?.type == "@Sendable (Data?, Error?) -> ()")
        let open = try #require(
            index.resolvedSignature(
                file: "Net/Net.swift", line: IndexedPackage.line(of: "func open<Key"),
                genericNames: [["Value"], ["Key"]]))
        #expect(open.parameters.map(\.type) == ["Key", "@Sendable (Result<[Key: Value], NetError>) -> ()"])
        #expect(open.returnType == "()")
    }

    @Test("A call resolves to the function it calls and that function's type")
    func callTargets() throws {
        let index = try IndexedPackage.require().index
        let start = IndexedPackage.line(of: "fetcher.fetch(")
        let column =
            try #require(IndexedPackage.lineText(start).range(of: ".fetch(")).lowerBound.utf16Offset(
                in: IndexedPackage.lineText(start)) + 2
        let fetch = try #require(index.reference(file: "Net/Net.swift", line: start, column: column))
        #expect(fetch.symbol.name == "fetch(_:completion:)")
        #expect(fetch.owner?.name == "Fetching")
        #expect(fetch.isCall && fetch.isDynamic)
        let superCall = try #require(
            index.reference(file: "Net/Net.swift", line: IndexedPackage.line(of: "super.refresh("), column: 1))
        #expect(superCall.owner?.name == "Base")
    }

    @Test("Conformances include those declared in extensions; a protocol lists its conforming types")
    func conformances() throws {
        let index = try IndexedPackage.require().index
        let session = try #require(index.types(named: "URLSession").first)
        #expect(index.conformances(ofUSR: session.usr).map(\.name).contains("Fetching"))
        let fetching = try #require(index.types(named: "Fetching").first)
        #expect(index.conformingTypes(toUSR: fetching.usr).map(\.name) == ["URLSession"])
        let base = try #require(index.types(named: "Base").first)
        #expect(index.conformingTypes(toUSR: base.usr).map(\.name) == ["Sub"])
        let sub = try #require(index.types(named: "Sub").first)
        #expect(index.conformances(ofUSR: sub.usr).map(\.name) == ["Base"])
    }

    @Test("Overrides: which methods override a method, and what a method overrides")
    func overrides() throws {
        let index = try IndexedPackage.require().index
        let base = try #require(
            index.declaration(file: "Net/Net.swift", line: IndexedPackage.line(of: "open func refresh")))
        let sub = try #require(
            index.declaration(file: "Net/Net.swift", line: IndexedPackage.line(of: "override public func refresh")))
        #expect(index.overrides(ofUSR: base.symbol.usr).map(\.usr) == [sub.symbol.usr])
        #expect(index.overridden(byUSR: sub.symbol.usr).map(\.usr) == [base.symbol.usr])
        #expect(index.overrides(ofUSR: sub.symbol.usr).isEmpty)
        // A requirement's implementation, in an extension, is recorded the same way.
        let requirement = try #require(
            index.declaration(file: "Net/Net.swift", line: IndexedPackage.line(of: "    func fetch(_ path")))
        #expect(index.overrides(ofUSR: requirement.symbol.usr).count == 1)
    }

    @Test("An associated type of a generic parameter, printed with its module and protocol, reads as written")
    func associatedType() throws {
        let signature = try #require(
            ResolvedSignature(
                usr: "s:9Buildkite4send",
                demangled: "Buildkite.send<A where A: Buildkite.HasBody, A: Buildkite.Resource>(_: A, completion: "
                    + "(Swift.Result<Buildkite.Response<A.Buildkite.Resource.Content>, Swift.Error>) -> ()) -> ()",
                genericNames: [["R"]]))
        #expect(signature.parameters.map(\.type) == ["R", "(Result<Response<R.Content>, Error>) -> ()"])
    }
}
