import CIndexStore
import Foundation

/// What the compiler wrote of a module while building it (`swift build --enable-index-store`):
/// every declaration, reference, call, conformance and override in its source files, with
/// the symbols' USRs, which mangle their fully resolved types.
///
/// ```swift
/// let store = try IndexStoreLocation.build(packagePath: package, scratchPath: scratch)
/// let index = try CompilerIndex.load(storePath: store, roots: [package.appendingPathComponent("Sources")])
/// let signature = index.resolvedSignature(file: "Sources/App/Client.swift", line: 12)
/// ```
public final class CompilerIndex: Sendable, Equatable {
    /// Every occurrence in the module's files, in file, line and column order.
    public let occurrences: [IndexOccurrence]
    /// The modules of the units read (the index's own modules, not their dependencies).
    public let moduleNames: Set<String>
    private let byFile: [String: [IndexOccurrence]]
    /// Each file by every ending of its path that no other file shares (`Net/Net.swift`).
    private let byPathEnding: [String: String]
    /// By file, then line: the functions declared there.
    private let callablesByLine: [String: [Int: [IndexOccurrence]]]
    private let byUSR: [String: [IndexOccurrence]]
    /// The types (protocols included) by name, each once.
    let typesByName: [String: [IndexSymbol]]
    /// By type USR: its direct protocols and superclasses (`baseOf` relations), and the
    /// types that name it as theirs.
    let bases: [String: [IndexSymbol]]
    let derived: [String: [IndexSymbol]]
    /// By type USR, its extensions' USRs; by extension USR, the types it extends.
    let extensionsByType: [String: [String]]
    let extendedByExtension: [String: [IndexSymbol]]

    /// An index of these occurrences (read from a store by ``load(storePath:roots:)``).
    public init(occurrences: [IndexOccurrence], moduleNames: Set<String>) {
        self.occurrences = occurrences.sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
        self.moduleNames = moduleNames
        byFile = Dictionary(grouping: self.occurrences, by: \.file)
        var endings: [String: [String]] = [:]
        for file in byFile.keys {
            let components = file.split(separator: "/")
            for count in 1...max(components.count, 1) {
                endings[components.suffix(count).joined(separator: "/"), default: []].append(file)
            }
        }
        byPathEnding = endings.compactMapValues { $0.count == 1 ? $0[0] : nil }
        callablesByLine = byFile.mapValues { occurrences in
            Dictionary(
                grouping: occurrences.filter {
                    $0.symbol.kind.isCallable && !$0.roles.contains(.implicit)
                        && !$0.roles.isDisjoint(with: [.definition, .declaration])
                }, by: \.line)
        }
        var byUSR: [String: [IndexOccurrence]] = [:]
        for occurrence in self.occurrences {
            byUSR[occurrence.symbol.usr, default: []].append(occurrence)
            for relation in occurrence.relations where relation.symbol.usr != occurrence.symbol.usr {
                byUSR[relation.symbol.usr, default: []].append(occurrence)
            }
        }
        self.byUSR = byUSR
        var typesByName: [String: [IndexSymbol]] = [:]
        for symbol in Set(self.occurrences.map(\.symbol)) where symbol.kind.isType {
            typesByName[symbol.name, default: []].append(symbol)
        }
        self.typesByName = typesByName.mapValues { $0.sorted { $0.usr < $1.usr } }
        var bases: [String: [IndexSymbol]] = [:]
        var derived: [String: [IndexSymbol]] = [:]
        var extensionsByType: [String: [String]] = [:]
        var extendedByExtension: [String: [IndexSymbol]] = [:]
        for occurrence in self.occurrences {
            for relation in occurrence.relations {
                if relation.roles.contains(.baseOf) {
                    bases[relation.symbol.usr, default: []].append(occurrence.symbol)
                    derived[occurrence.symbol.usr, default: []].append(relation.symbol)
                }
                if relation.roles.contains(.extendedBy) {
                    extensionsByType[occurrence.symbol.usr, default: []].append(relation.symbol.usr)
                    extendedByExtension[relation.symbol.usr, default: []].append(occurrence.symbol)
                }
            }
        }
        (self.bases, self.derived) = (bases, derived)
        (self.extensionsByType, self.extendedByExtension) = (extensionsByType, extendedByExtension)
    }

    /// The same index (compared by identity: an index is read once and shared).
    public static func == (lhs: CompilerIndex, rhs: CompilerIndex) -> Bool { lhs === rhs }

    /// Reads the units of the store at `storePath` whose main file is under one of `roots`
    /// (every unit of a non-system module when `roots` is empty), then their records'
    /// occurrences. Throws when libIndexStore or the store cannot be opened.
    public static func load(storePath: URL, roots: [URL] = []) throws -> CompilerIndex {
        let library = try IndexStoreLibrary.shared.get().functions
        var error: UnsafeMutableRawPointer?
        guard let store = library.store_create(storePath.path, &error) else {
            throw CompilerIndexError.unreadableStore(describe(error, library) ?? storePath.path)
        }
        defer { library.store_dispose(store) }
        let prefixes = roots.map { canonical($0.path).hasSuffix("/") ? canonical($0.path) : canonical($0.path) + "/" }
        let reader = StoreReader(library: library, store: store)
        for unit in reader.unitNames() {
            guard let unitReader = library.unit_reader_create(store, unit, &error) else { continue }
            defer { library.unit_reader_dispose(unitReader) }
            let mainFile = canonical(library.unit_reader_get_main_file(unitReader).text)
            guard prefixes.isEmpty ? !mainFile.isEmpty : prefixes.contains(where: mainFile.hasPrefix) else { continue }
            reader.modules.insert(library.unit_reader_get_module_name(unitReader).text)
            reader.readRecords(of: unitReader)
        }
        return CompilerIndex(occurrences: reader.occurrences, moduleNames: reader.modules)
    }

    /// The libIndexStore this process uses: the path in `FUTUREBRIDGE_MIGRATE_LIBINDEXSTORE`,
    /// or the one beside the toolchain's `swift` found on `PATH` in `environment`; nil if none.
    public static func libraryPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        IndexStoreLibrary.locate(environment: environment)
    }

    /// Opens the libIndexStore at `path`, to check it: throws ``CompilerIndexError/libraryNotFound(_:)``
    /// saying why it cannot be used. (``load(storePath:roots:)`` opens the process's own once.)
    public static func checkLibrary(at path: String) throws {
        _ = try IndexStoreLibrary.open(path).get()
    }

    /// Every occurrence in `file` (an absolute path, or a path relative to some root that
    /// ends the path of exactly one of the index's files).
    public func occurrences(inFile file: String) -> [IndexOccurrence] {
        indexedPath(file).flatMap { byFile[$0] } ?? []
    }

    /// The functions, methods and initializers declared (or defined) at `file:line`.
    func callables(file: String, line: Int) -> [IndexOccurrence] {
        indexedPath(file).flatMap { callablesByLine[$0]?[line] } ?? []
    }

    /// The index's path of `file`: the same path, the one file whose path ends with it, or
    /// the same file through its symlinks.
    private func indexedPath(_ file: String) -> String? {
        if byFile[file] != nil { return file }
        if !file.hasPrefix("/"), let found = byPathEnding[file.split(separator: "/").joined(separator: "/")] {
            return found
        }
        let canonical = Self.canonical(file)
        return byFile[canonical] != nil ? canonical : nil
    }

    /// Every occurrence of the symbol `usr`, and every occurrence related to it.
    public func occurrences(ofUSR usr: String) -> [IndexOccurrence] {
        byUSR[usr] ?? []
    }

    static func canonical(_ path: String) -> String {
        guard !path.isEmpty else { return path }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    static func describe(_ error: UnsafeMutableRawPointer?, _ library: fbis_library) -> String? {
        guard let error else { return nil }
        defer { library.error_dispose(error) }
        return library.error_get_description(error).map { String(cString: $0) }
    }
}

/// Walks a store's units and records through the library's callbacks.
private final class StoreReader {
    let library: fbis_library
    let store: UnsafeMutableRawPointer
    var occurrences: [IndexOccurrence] = []
    var modules: Set<String> = []
    private var readRecords: Set<String> = []
    private var strings: [String] = []
    private var visit: ((UnsafeMutableRawPointer) -> Void)?

    init(library: fbis_library, store: UnsafeMutableRawPointer) {
        self.library = library
        self.store = store
    }

    func unitNames() -> [String] {
        strings = []
        _ = library.store_units_apply_f(store, 1, Unmanaged.passUnretained(self).toOpaque()) { context, name in
            Unmanaged<StoreReader>.fromOpaque(context!).takeUnretainedValue().strings.append(name.text)
            return true
        }
        return strings
    }

    /// Calls `body` with each pointer the library hands to `apply`'s applier, during the walk
    /// (the pointers are valid only then).
    private func each(
        _ apply: (UnsafeMutableRawPointer, fbis_pointer_applier) -> Void, visit body: (UnsafeMutableRawPointer) -> Void
    ) {
        withoutActuallyEscaping(body) { body in
            let saved = visit
            visit = body
            defer { visit = saved }
            apply(Unmanaged.passUnretained(self).toOpaque()) { context, value in
                if let value { Unmanaged<StoreReader>.fromOpaque(context!).takeUnretainedValue().visit?(value) }
                return true
            }
        }
    }

    func readRecords(of unitReader: UnsafeMutableRawPointer) {
        var records: [(name: String, file: String)] = []
        each {
            _ = library.unit_reader_dependencies_apply_f(unitReader, $0, $1)
        } visit: { dependency in
            guard library.unit_dependency_get_kind(dependency) == 2 else { return }
            records.append(
                (
                    library.unit_dependency_get_name(dependency).text,
                    CompilerIndex.canonical(library.unit_dependency_get_filepath(dependency).text)
                ))
        }
        for (name, file) in records where readRecords.insert(name).inserted {
            var error: UnsafeMutableRawPointer?
            guard let record = library.record_reader_create(store, name, &error) else {
                _ = CompilerIndex.describe(error, library)
                continue
            }
            defer { library.record_reader_dispose(record) }
            each {
                _ = library.record_reader_occurrences_apply_f(record, $0, $1)
            } visit: { occurrence in
                occurrences.append(read(occurrence, file: file))
            }
        }
    }

    private func read(_ occurrence: UnsafeMutableRawPointer, file: String) -> IndexOccurrence {
        var line: UInt32 = 0
        var column: UInt32 = 0
        library.occurrence_get_line_col(occurrence, &line, &column)
        var relations: [IndexRelation] = []
        each {
            _ = library.occurrence_relations_apply_f(occurrence, $0, $1)
        } visit: { relation in
            relations.append(
                IndexRelation(
                    roles: SymbolRoles(rawValue: library.symbol_relation_get_roles(relation)),
                    symbol: symbol(library.symbol_relation_get_symbol(relation))))
        }
        return IndexOccurrence(
            symbol: symbol(library.occurrence_get_symbol(occurrence)),
            roles: SymbolRoles(rawValue: library.occurrence_get_roles(occurrence)), file: file, line: Int(line),
            column: Int(column), relations: relations)
    }

    private func symbol(_ pointer: UnsafeMutableRawPointer?) -> IndexSymbol {
        guard let pointer else { return IndexSymbol(usr: "", name: "", kind: .other(0)) }
        return IndexSymbol(
            usr: library.symbol_get_usr(pointer).text, name: library.symbol_get_name(pointer).text,
            kind: SymbolKind(rawValue: Int(library.symbol_get_kind(pointer))))
    }
}
