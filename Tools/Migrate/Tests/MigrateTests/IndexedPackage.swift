import Foundation
import MigrateCore
import Testing

/// A tiny package, written to a temporary directory and built once with `swift build
/// --enable-index-store`, and its index store, read.
enum IndexedPackage {
    struct Built: Sendable {
        var index: CompilerIndex
    }

    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The package's one source file, `Sources/Net/Net.swift`.
    static let source = """
        import Foundation
        #if canImport(FoundationNetworking)
        import FoundationNetworking
        #endif

        public struct NetError: Error {}
        public typealias NetResult<S> = Result<S, NetError>

        public final class Client: Sendable {
            public init() {}
            public func load<T: Decodable & Sendable>(_ path: String, completion: @escaping @Sendable (NetResult<T>) -> Void) {}
        }

        public protocol SessionAPI {
            typealias CompletionHandler = @Sendable (Data?, URLResponse?, Error?) -> Void
            func request(_ url: URL, completion: @escaping CompletionHandler)
        }

        public protocol CacheAPI {
            typealias CompletionHandler = @Sendable (Data?, Error?) -> Void
            func request(_ key: String, completion: @escaping CompletionHandler)
        }

        public protocol Fetching {
            func fetch(_ path: String, completion: @escaping @Sendable (Result<Data, any Error>) -> Void)
        }

        extension URLSession: Fetching {
            public func fetch(_ path: String, completion: @escaping @Sendable (Result<Data, any Error>) -> Void) {
                completion(.success(Data()))
            }
        }

        public final class Loader<F: Fetching> {
            let fetcher: F
            public init(fetcher: F) { self.fetcher = fetcher }
            public func start() { fetcher.fetch("a") { _ in } }
        }

        public struct Endpoint: Sendable { public init() {} }

        public final class API: Sendable {
            public init() {}
            public func send(_ endpoint: Endpoint, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {}
            public func send<T: Decodable & Sendable>(
                _ endpoint: Endpoint, completion: @escaping @Sendable (Result<T, any Error>) -> Void
            ) {}
        }

        open class Base {
            public init() {}
            open func refresh(completion: @escaping @Sendable (Error?) -> Void) {}
        }

        public final class Sub: Base {
            override public func refresh(completion: @escaping @Sendable (Error?) -> Void) {
                super.refresh(completion: completion)
            }
        }

        public protocol Scheduler: Sendable {}

        public protocol Store {
            func load(on scheduler: some Scheduler, completion: @escaping @Sendable (Result<Int, any Error>) -> Void)
        }

        public final class MemoryStore: Store {
            public init() {}
            public func load(on scheduler: some Scheduler, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
            }
        }

        public final class Box<Value: Sendable>: Sendable {
            public init() {}
            public func open<Key: Hashable>(_ key: Key, completion: @escaping @Sendable (NetResult<[Key: Value]>) -> Void) {}
        }
        """

    static let built: Result<Built, Failure> = {
        do {
            let package = FileManager.default.temporaryDirectory.appendingPathComponent(
                "futurebridge-index-\(ProcessInfo.processInfo.processIdentifier)")
            defer { try? FileManager.default.removeItem(at: package) }
            let sources = package.appendingPathComponent("Sources/Net")
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            try """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "Net", targets: [.target(name: "Net")])
            """.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            try source.write(to: sources.appendingPathComponent("Net.swift"), atomically: true, encoding: .utf8)
            let store = try IndexStoreLocation.build(
                packagePath: package, scratchPath: package.appendingPathComponent(".build"))
            let index = try CompilerIndex.load(storePath: store, roots: [package.appendingPathComponent("Sources")])
            return .success(Built(index: index))
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }()

    /// The built package, or a recorded failure that says why there is none.
    static func require() throws -> Built {
        try built.get()
    }

    /// The line of the first line of the source that contains `text`.
    static func line(of text: String) -> Int {
        (source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) } ?? -1) + 1
    }
}

extension IndexedPackage {
    /// The text of the source's line `line` (from 1).
    static func lineText(_ line: Int) -> String {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.contains(line - 1) ? String(lines[line - 1]) : ""
    }
}
