/// What the tool writes.
public enum MigrationMode: Sendable, Equatable {
    /// For each completion-handler function, an `async throws` form built on FutureBridge,
    /// in `<File>+Async.swift`.
    case asyncForms
    /// For each `async` function, a completion-handler shim for callers not migrated yet,
    /// in `<File>+LegacyShims.swift`.
    case legacyShims

    /// The suffix of the generated files' names.
    public var fileSuffix: String {
        switch self {
        case .asyncForms: "+Async"
        case .legacyShims: "+LegacyShims"
        }
    }
}

/// How to migrate.
public struct MigrationOptions: Sendable, Equatable {
    /// What the tool writes: async forms, or completion-handler shims.
    public var mode: MigrationMode
    /// Wrap only `public` and `open` functions: for wrappers compiled outside the module
    /// that declares the API.
    public var publicOnly: Bool
    /// Modules every generated file imports besides the original file's imports and
    /// FutureBridge (the module that declares the API, when the wrappers live elsewhere).
    public var imports: [String]
    /// Functions whose handler is called once, whatever their names say: `name`,
    /// `Owner.name`, or a selector (`Owner.name(label:handler:)`).
    public var oneShot: Set<String>
    /// Functions whose handler is called many times (they get a stream form), named the same way.
    public var multiShot: Set<String>
    /// The method that stops what a type stands for, where its name does not say so:
    /// `Type.method` (`--cancel-method`).
    public var cancelMethods: [String]
    /// The module's default actor isolation (`--default-isolation MainActor`, or its
    /// target's `.defaultIsolation(MainActor.self)`): `@MainActor` makes every declaration
    /// without an isolation of its own main-actor isolated, as the compiler does (SE-0466).
    /// Nil: nonisolated.
    public var defaultIsolation: String?
    /// What the compile gate withdrew: the planners leave these units out, and report each
    /// with the compiler's message.
    public var withdrawn: Withdrawals = [:]
    /// What the compiler wrote while building the module (``CompilerIndex``, read from its
    /// index store): resolved types, type aliases, conformances and overrides come from it, and
    /// the syntax's guesses only where it has no answer. Nil: the sources' syntax alone.
    public var compilerIndex: CompilerIndex?
    /// Make a synchronous function async for the callback call it ends with, and its callers
    /// up to a root (``SyncPropagation``; `--no-propagation` turns it off).
    public var propagates = true
    /// The module's Swift language mode (5 or 6): a Swift 5 mode module builds what Swift 6
    /// mode refuses (a handler that is not `@Sendable` called from a task), and the report lists
    /// what Swift 6 mode would need instead of leaving the function alone. Default 6.
    public var languageMode = 6

    /// Options with these values (each defaults to the tool's default).
    public init(
        mode: MigrationMode = .asyncForms, publicOnly: Bool = false, imports: [String] = [],
        oneShot: Set<String> = [], multiShot: Set<String> = [], cancelMethods: [String] = [],
        defaultIsolation: String? = nil, compilerIndex: CompilerIndex? = nil, propagates: Bool = true
    ) {
        self.compilerIndex = compilerIndex
        self.propagates = propagates
        self.cancelMethods = cancelMethods
        self.defaultIsolation = defaultIsolation
        self.mode = mode
        self.publicOnly = publicOnly
        self.imports = imports
        self.oneShot = oneShot
        self.multiShot = multiShot
    }
}

extension MigrationOptions {
    /// A module whose declarations are main-actor isolated by default (`-default-isolation MainActor`).
    public static let mainActorDefault = MigrationOptions(defaultIsolation: "@MainActor")
}
