import Dispatch
import Foundation
import GRDB
import GRDBWrappers
import Testing

/// The async forms the tool generated from GRDB's public API (Tests/GRDBWrappers),
/// against a real SQLite database file in a temporary directory.
@Suite("GRDB", .timeLimit(.minutes(1)))
struct GRDBTests {
    /// A database pool (WAL) on a new file, with a `player` table.
    static func makePool() async throws -> (DatabasePool, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migrate-grdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("players") { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        // `asyncMigrate(_:completion:)`'s async form: the body runs with the migrated database.
        let created = try await migrator.asyncMigrate(pool) { db in try db.tableExists("player") }
        #expect(created)
        return (pool, directory)
    }

    @Test("Writes and reads through the protocol extensions' async forms")
    func writeAndRead() async throws {
        let (pool, directory) = try await Self.makePool()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inserted = try await pool.asyncBarrierWriteWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES (?), (?)", arguments: ["Ann", "Bob"])
            return db.changesCount
        }
        #expect(inserted == 2)
        let names = try await pool.asyncRead { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
        }
        #expect(names == ["Ann", "Bob"])
        let unsafeCount = try await pool.asyncUnsafeRead { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
        }
        #expect(unsafeCount == 2)
        try await pool.asyncBarrierWriteWithoutTransaction { db in
            try db.execute(sql: "DELETE FROM player WHERE name = 'Bob'")
        }
        let reader: any DatabaseReader = pool
        #expect(try await reader.asyncRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("db.sqlite").path))
    }

    @Test("A database queue gets the same async forms (its writes through GRDB's own async function)")
    func queue() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migrate-grdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("queue.sqlite").path)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "CREATE TABLE t (x INTEGER)") }
        #expect(try await queue.asyncRead { db in try db.tableExists("t") })
    }

    @Test("SQLite's errors and the body's errors are thrown")
    func errors() async throws {
        let (pool, directory) = try await Self.makePool()
        defer { try? FileManager.default.removeItem(at: directory) }
        await #expect(throws: DatabaseError.self) {
            try await pool.asyncRead { db in try db.execute(sql: "SELECT * FROM nowhere") }
        }
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await pool.asyncBarrierWriteWithoutTransaction { _ in throw Refused() }
        }
        // `asyncWriteWithoutTransaction { db in … }` has no scoped form (it would capture this
        // call, which still reaches GRDB's own function from async code).
        pool.asyncWriteWithoutTransaction { _ in }
    }

    @Test("A cancelled task stops waiting at once; GRDB returns no handle, so the work still runs")
    func cancellation() async throws {
        let (pool, directory) = try await Self.makePool()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Hold the writer until the cancelled wait has ended.
        let gate = DispatchSemaphore(value: 0)
        let (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
        let blocker = Task {
            try await pool.writeWithoutTransaction { _ in
                enteredContinuation.yield()
                gate.wait()
            }
        }
        for await _ in entered { break }
        let waiting = Task {
            try await pool.asyncBarrierWriteWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('late')")
            }
        }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        gate.signal()
        try await blocker.value
        // The writer is serial: by the time this write runs, the cancelled one has run too.
        let count = try await pool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
        }
        #expect(count == 1)
    }
}
