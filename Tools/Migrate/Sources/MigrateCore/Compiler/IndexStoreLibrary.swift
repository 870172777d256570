import CIndexStore
import Foundation

/// The toolchain's libIndexStore, opened at run time: found next to the `swift` on `PATH`
/// (through its symlinks, `../lib/libIndexStore.so`, `.dylib` on macOS), or at the path in
/// `FUTUREBRIDGE_MIGRATE_LIBINDEXSTORE` (an Xcode toolchain's, for instance).
final class IndexStoreLibrary: @unchecked Sendable {
    /// The library's functions (immutable once loaded).
    let functions: fbis_library
    /// Where it was loaded from.
    let path: String

    private init(functions: fbis_library, path: String) {
        self.functions = functions
        self.path = path
    }

    /// The environment variable that names the library's path.
    static let environmentVariable = "FUTUREBRIDGE_MIGRATE_LIBINDEXSTORE"

    /// The library's file name on this platform.
    static var fileName: String {
        #if os(macOS)
            "libIndexStore.dylib"
        #else
            "libIndexStore.so"
        #endif
    }

    /// The process's library, loaded once (or why it could not be).
    static let shared: Result<IndexStoreLibrary, CompilerIndexError> = load()

    private static func load() -> Result<IndexStoreLibrary, CompilerIndexError> {
        guard let path = locate() else {
            return .failure(
                .libraryNotFound(
                    "no \(fileName) next to the `swift` on PATH; set \(environmentVariable) to its path"))
        }
        return open(path)
    }

    /// Opens the library at `path` (each call opens it anew: ``shared`` is the process's).
    static func open(_ path: String) -> Result<IndexStoreLibrary, CompilerIndexError> {
        var functions = fbis_library()
        var message = [CChar](repeating: 0, count: 1024)
        guard fbis_load(path, &functions, &message, message.count) else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .failure(.libraryNotFound(text))
        }
        return .success(IndexStoreLibrary(functions: functions, path: path))
    }

    /// The library's path: the environment's, or the one beside the toolchain's `swift`.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given = environment[environmentVariable], !given.isEmpty { return given }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            let library = swift.resolvingSymlinksInPath().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("lib").appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: library.path) { return library.path }
        }
        return nil
    }
}

/// Why the compiler's index could not be read.
public enum CompilerIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libIndexStore could not be found or opened (the message says where it was looked for).
    case libraryNotFound(String)
    /// The index store could not be opened or read.
    case unreadableStore(String)

    /// The message for the user.
    public var description: String {
        switch self {
        case .libraryNotFound(let message): "libIndexStore: \(message)"
        case .unreadableStore(let message): "index store: \(message)"
        }
    }
}

extension fbis_string {
    /// The text (copied: the library owns the bytes).
    var text: String {
        guard let data, length > 0 else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
