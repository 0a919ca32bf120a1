import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the disk under the database allows, measured beside it.
enum StorageProbe {
    /// Appends 100 bytes and `fdatasync`s them, as SQLite syncs its WAL on every commit with
    /// `synchronous=FULL`, for `duration` seconds: the disk's syncs per second, which a
    /// durable write rate can beat only by putting many writes in one commit.
    static func syncsPerSecond(in directory: String, duration: Double) throws -> Double {
        let path = directory + "/fsync-probe"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw BenchError("cannot create \(path)") }
        defer { close(fd); unlink(path) }
        let block = [UInt8](repeating: 0x5a, count: 100)
        let start = now()
        let deadline = start + UInt64(duration * 1e9)
        var count = 0
        repeat {
            guard block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == block.count, fdatasync(fd) == 0 else {
                throw BenchError("write or fdatasync failed in \(directory)")
            }
            count += 1
        } while now() < deadline
        return Double(count) / (Double(now() - start) / 1e9)
    }

    /// SQLite itself through the `sqlite3` shell on the same file system, with the
    /// daemon's settings (WAL, synchronous=FULL) and table: inserts per second, one per
    /// transaction and all in one transaction. nil when `sqlite3` is not installed.
    static func sqliteInserts(in directory: String, single: Int, batched: Int) throws -> (single: Double, batched: Double)? {
        guard let sqlite = findExecutable("sqlite3") else { return nil }
        let database = directory + "/ceiling.sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(database + suffix) } }
        let setup = """
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=FULL;
            CREATE TABLE todo (id TEXT PRIMARY KEY NOT NULL, number INTEGER NOT NULL UNIQUE, title TEXT NOT NULL,
              notes TEXT NOT NULL DEFAULT '', priority TEXT NOT NULL, due TEXT, tags TEXT NOT NULL DEFAULT '[]',
              createdAt INTEGER NOT NULL, updatedAt INTEGER NOT NULL, completedAt INTEGER, deletedAt INTEGER,
              revision INTEGER NOT NULL);
            CREATE TABLE counter (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
            INSERT INTO counter VALUES ('number', 0), ('change', 0);

            """
        _ = try runSQLite(sqlite, database, setup)
        var number = 0
        func insert() -> String {
            number += 1
            return "INSERT INTO todo VALUES ('\(UUID().uuidString.lowercased())', \(number), 'Bench todo \(number)', '', 'normal', NULL, '[]', 1700000000000, 1700000000000, NULL, NULL, 1);\n"
        }
        // A transaction as the daemon commits one: the row and its counters.
        let counters = "UPDATE counter SET value = value + 1 WHERE name = 'number'; UPDATE counter SET value = value + 1 WHERE name = 'change';\n"
        let empty = try runSQLite(sqlite, database, "PRAGMA synchronous=FULL;\n")
        var one = "PRAGMA synchronous=FULL;\n"
        for _ in 0..<single { one += "BEGIN;\n" + insert() + counters + "COMMIT;\n" }
        let oneTime = try runSQLite(sqlite, database, one)
        var batch = "PRAGMA synchronous=FULL;\nBEGIN;\n"
        for _ in 0..<batched { batch += insert() + counters }
        batch += "COMMIT;\n"
        let batchTime = try runSQLite(sqlite, database, batch)
        func rate(_ count: Int, _ time: UInt64) -> Double { Double(count) / (Double(time > empty ? time - empty : time) / 1e9) }
        return (rate(single, oneTime), rate(batched, batchTime))
    }

    private static func runSQLite(_ sqlite: String, _ database: String, _ script: String) throws -> UInt64 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite)
        process.arguments = ["-batch", "-bail", database]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        let scriptData = Data(script.utf8)
        let start = now()
        try process.run()
        let writer = input.fileHandleForWriting
        Thread {
            writer.write(scriptData)
            try? writer.close()
        }.start()
        process.waitUntilExit()
        let elapsed = now() - start
        guard process.terminationStatus == 0 else { throw BenchError("sqlite3 failed on \(database)") }
        return elapsed
    }
}

/// The first `name` on the PATH that can be executed.
func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
}
