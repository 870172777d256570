import MigrateCore
import Testing

/// Two types declare a handler method with the same name and labels; only one has an async
/// counterpart. A call is rewritten only where the syntax says its receiver is that type.
@Suite("Call sites: the receiver's type")
struct CallSiteReceiverTests {
    static let api = """
        open class Store {
            public init() {}
            public static let shared = Store()
            public func load(id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {}
            public static func ping(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
        }

        public final class Disk: Sendable {
            public func load(id: Int, completion: (Result<String, any Error>) -> Void) {}
        }
        """

    /// The outcome of the only call of `load`/`ping` in `body`, written inside `wrapper`.
    static func outcome(_ program: String) throws -> CallOutcome {
        let result = CallMigrator().migrate(
            [SourceInput(path: "Program.swift", text: program)], context: [SourceInput(path: "API.swift", text: api)])
        let entry = try #require(result.entries.first)
        #expect(result.entries.count == 1)
        return entry.outcome
    }

    static func isConverted(_ outcome: CallOutcome) -> Bool {
        if case .converted = outcome { true } else { false }
    }

    static let handler = """
        { result in
                if case .success(let value) = result {
                    print(value)
                } else {
                    print("none")
                }
            }
        """

    @Test(
        "The receiver's type known: the call of Store's load is rewritten",
        arguments: [
            "func run(store: Store) async {\n    store.load(id: 1) \(handler)\n}",
            "func run(store: Store?) async {\n    store?.load(id: 1) \(handler)\n}",
            "func run() async {\n    let store: Store = .shared\n    store.load(id: 1) \(handler)\n}",
            "func run() async {\n    let store = Store()\n    store.load(id: 1) \(handler)\n}",
            "struct Screen {\n    let store: Store\n    func run() async {\n        store.load(id: 1) \(handler)\n    }\n}",
            "struct Screen {\n    var store = Store()\n    func run() async {\n        self.store.load(id: 1) \(handler)\n    }\n}",
            "final class Cached: Store {\n    func run() async {\n        self.load(id: 1) \(handler)\n    }\n}",
            "final class Cached: Store {\n    func run() async {\n        load(id: 1) \(handler)\n    }\n}",
            "func run() async {\n    Store.ping \(handler)\n}",
        ])
    func known(_ program: String) throws {
        let outcome = try Self.outcome(program)
        #expect(Self.isConverted(outcome), "\(outcome)")
    }

    @Test(
        "A receiver of the other type: left alone, never rewritten into a call that does not compile",
        arguments: [
            "func run(disk: Disk) async {\n    disk.load(id: 1) \(handler)\n}",
            "func run() async {\n    let disk = Disk()\n    disk.load(id: 1) \(handler)\n}",
            "extension Disk {\n    func run() async {\n        load(id: 1) \(handler)\n    }\n}",
            // The nearest declaration wins: the parameter `store` is shadowed by a local.
            "func run(store: Store) async {\n    let store = Disk()\n    store.load(id: 1) \(handler)\n}",
        ])
    func other(_ program: String) throws {
        guard case .leftAlone(.otherReceiver, let detail) = try Self.outcome(program) else {
            Issue.record("not left alone as another type's call: \(program)")
            return
        }
        #expect(detail.contains("`Disk`"))
    }

    @Test(
        "The receiver's type unknown and two types declare the method: left alone with the reason",
        arguments: [
            "func run(store: Store) async {\n    let other = store\n    other.load(id: 1) \(handler)\n}",
            "func run(make: () -> Store) async {\n    make().load(id: 1) \(handler)\n}",
            "func run(stores: [Store]) async {\n    for store in stores {\n        store.load(id: 1) \(handler)\n    }\n}",
            "func run(store: Store?) async {\n    if let other = store {\n        other.load(id: 1) \(handler)\n    }\n}",
        ])
    func unknown(_ program: String) throws {
        #expect(
            try Self.outcome(program)
                == .leftAlone(
                    .receiverUnknown,
                    "`Store`, `Disk` declare `load(id:completion:)`: the receiver's type decides, and the syntax "
                        + "does not say it"))
    }

    @Test("One type declares the method: a receiver of unknown type is rewritten, as before")
    func single() throws {
        let program = "func run(make: () -> Store) async {\n    make().ping2 \(Self.handler)\n}"
        let api = """
            public final class Store: Sendable {
                public func ping2(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {}
            }
            """
        let result = CallMigrator().migrate(
            [SourceInput(path: "Program.swift", text: program)], context: [SourceInput(path: "API.swift", text: api)])
        #expect(result.convertedCount == 1)
    }
}
