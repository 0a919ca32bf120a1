import Foundation
import Testing

/// A database damaged behind todod's back: bytes flipped in the real file, rows and
/// counters changed with the `sqlite3` shell. todod says what is wrong and what to do,
/// and writes nothing into it.
@Suite("A damaged database, end to end")
struct DamagedDatabaseTests {
    @Test("a database with a damaged page is refused at start, naming the last backup, and left byte for byte as it was")
    func damagedPageIsRefused() async throws {
        let (daemon, backup) = try await Self.databaseWithBackup()
        // Everything committed into the file itself first: a checkpoint at the next open would
        // otherwise copy the write-ahead log's pages in, as SQLite rightly does.
        _ = try await Self.sqlite(daemon.databasePath, "PRAGMA wal_checkpoint(TRUNCATE)")
        // The id index: todod reads it only to write, so a start that skips the check goes on.
        let root = try await Self.sqlite(daemon.databasePath, "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_todo_1'")
        let pageSize = try await Self.sqlite(daemon.databasePath, "PRAGMA page_size")
        let page = try #require(Int(root), "root page \(root)"), size = try #require(Int(pageSize), "page size \(pageSize)")
        let file = try #require(FileHandle(forUpdatingAtPath: daemon.databasePath))
        try file.seek(toOffset: UInt64((page - 1) * size))
        try file.write(contentsOf: Data(repeating: 0xA5, count: size))
        try file.close()
        let damaged = try Data(contentsOf: URL(fileURLWithPath: daemon.databasePath))

        let refused = try await run("todod", ["--socket", daemon.socketPath, "--database", daemon.databasePath], timeout: 15)
        #expect(refused.status != 0, "todod started on a damaged database: \(refused.stderr)")
        #expect(refused.stderr.contains("is corrupted"), "\(refused.stderr)")
        #expect(refused.stderr.contains("restore a backup (`todoctl backup` makes them; here is the last: \(backup))"), "\(refused.stderr)")
        let after = try Data(contentsOf: URL(fileURLWithPath: daemon.databasePath))
        #expect(after == damaged, "the damaged file was written: \(after.count) bytes")

        let check = try await daemon.check()
        #expect(check.status == 1, "status \(check.status): \(check.stdout) \(check.stderr)")
        #expect(check.stdout.contains("SQLite finds the file damaged"), "\(check.stdout) \(check.stderr)")
    }

    @Test("a row whose tags are not JSON stops the start with a message naming the todo, its column and what to do")
    func unreadableRowIsNamed() async throws {
        let (daemon, backup) = try await Self.databaseWithBackup()
        _ = try await Self.sqlite(daemon.databasePath, "UPDATE todo SET tags = '[' WHERE number = 2")
        let id = try await Self.sqlite(daemon.databasePath, "SELECT id FROM todo WHERE number = 2")

        let refused = try await run("todod", ["--socket", daemon.socketPath, "--database", daemon.databasePath], timeout: 15)
        #expect(refused.status != 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("the todo #2 (\(id)) in \(daemon.databasePath) cannot be read"), "\(refused.stderr)")
        #expect(refused.stderr.contains("its tags column holds \"[\", which is not JSON"), "\(refused.stderr)")
        #expect(refused.stderr.contains(backup), "\(refused.stderr)")
        #expect(!refused.stderr.contains("DecodingError") && !refused.stderr.contains("dataCorrupted"), "\(refused.stderr)")

        let check = try await daemon.check()
        #expect(check.status == 2, "status \(check.status): \(check.stdout)")
        #expect(check.stderr.contains("the todo #2"), "\(check.stderr)")
    }

    @Test("a number counter set below the highest number: --check says so, and an add says the database broke its own rule")
    func counterBelowHighestNumber() async throws {
        let (daemon, _) = try await Self.databaseWithBackup()
        _ = try await Self.sqlite(daemon.databasePath, "UPDATE counter SET value = 1 WHERE name = 'number'")

        let check = try await daemon.check()
        #expect(check.status == 1, "status \(check.status): \(check.stdout) \(check.stderr)")
        #expect(check.stdout.contains("the number counter says 1 but #3 exists"), "\(check.stdout)")

        let again = try await DaemonProcess.start(in: daemon.directory)
        let added = try await again.todoctl("add", "one more")
        #expect(added.status != 0, "\(added.stdout)")
        #expect(added.stderr.contains("broke one of its own rules"), "\(added.stderr)")
        #expect(added.stderr.contains("todod --check --database \(daemon.databasePath)"), "\(added.stderr)")
        #expect(!added.stderr.contains("disk space"), "\(added.stderr)")
        // Stopped without stop()'s own --check, which rightly finds the counter this test broke.
        kill(again.pid, SIGTERM)
        let exitStatus = try await again.waitForExit()
        #expect(exitStatus == 0)
    }

    /// A stopped daemon's database holding #1 to #3, and the path of a backup of it.
    private static func databaseWithBackup() async throws -> (DaemonProcess, String) {
        let daemon = try await DaemonProcess.start()
        for title in ["first", "second", "third"] { #expect(try await daemon.todoctl("add", title).status == 0) }
        let backedUp = try await daemon.todoctl("backup")
        let path = try #require(backedUp.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(try await daemon.stop() == 0)
        return (daemon, path)
    }

    /// One value from the `sqlite3` shell, its newline dropped.
    private static func sqlite(_ database: String, _ sql: String) async throws -> String {
        let result = try await run("/usr/bin/sqlite3", [database, sql])
        guard result.status == 0 else { throw TestFailure("sqlite3 \(sql): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
