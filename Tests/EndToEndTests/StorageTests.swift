import Foundation
import Testing

/// The database file as a user sees it: copied, pointed at another program's file,
/// made read-only. Each probe is the real `todod` and the `sqlite3` shell.
@Suite("Storage, end to end")
struct StorageTests {
    /// The unprivileged user the permission probes run as (`nobody`).
    static let otherUser: UInt32 = 65534

    @Test("after SIGTERM, todos.sqlite copied alone (no -wal) holds every todo")
    func fileAloneHoldsEverything() async throws {
        let daemon = try await DaemonProcess.start()
        for title in ["first", "second"] {
            let added = try await daemon.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
        let elsewhere = try makeTemporaryDirectory() + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: daemon.databasePath, toPath: elsewhere)
        let titles = try await run("/usr/bin/sqlite3", [elsewhere, "SELECT title FROM todo ORDER BY number"])
        #expect(titles.stdout == "first\nsecond\n", "\(titles.stderr)")
    }

    @Test("while the daemon runs and is idle, the write-ahead log is folded in: a copy of todos.sqlite alone holds the todos")
    func idleCheckpoint() async throws {
        let daemon = try await DaemonProcess.start()
        let added = try await daemon.todoctl("add", "kept while running")
        #expect(added.status == 0, "\(added.stderr)")
        let elsewhere = try makeTemporaryDirectory() + "/copy.sqlite"
        // The checkpoint comes 5 s after the last commit; the deadline is 30 s.
        var titles = ""
        for _ in 0..<60 where titles.isEmpty {
            try? FileManager.default.removeItem(atPath: elsewhere)
            try FileManager.default.copyItem(atPath: daemon.databasePath, toPath: elsewhere)
            titles = (try? await run("/usr/bin/sqlite3", [elsewhere, "SELECT title FROM todo"]).stdout) ?? ""
            if titles.isEmpty { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(titles == "kept while running\n")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("todoctl backup FILE, while the daemon runs, writes one self-contained SQLite file with every todo")
    func backupWhileRunning() async throws {
        let daemon = try await DaemonProcess.start()
        for title in ["first", "second"] {
            let added = try await daemon.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let completed = try await daemon.todoctl("done", "1")
        #expect(completed.status == 0, "\(completed.stderr)")
        let file = try makeTemporaryDirectory() + "/todos-backup.sqlite"
        let backedUp = try await daemon.todoctl("backup", file)
        #expect(backedUp.status == 0, "\(backedUp.stderr)")
        #expect(backedUp.stdout.hasPrefix("backed up ") && backedUp.stdout.contains(file))
        let rows = try await run("/usr/bin/sqlite3", [file, "SELECT number, title, completedAt IS NOT NULL FROM todo ORDER BY number"])
        #expect(rows.stdout == "1|first|1\n2|second|0\n", "\(rows.stderr)")
        let result = try await run("/usr/bin/sqlite3", [file, "PRAGMA journal_mode"])
        #expect(result.stdout == "delete\n")
        #expect(!FileManager.default.fileExists(atPath: file + "-wal"))
        // An existing file is not replaced without --force; with it, it is.
        let refused = try await daemon.todoctl("backup", file)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("already exists"))
        let backedUp2 = try await daemon.todoctl("backup", file, "--force")
        #expect(backedUp2.status == 0, "\(backedUp2.stderr)")
        // Without a file, the copy stays in the daemon's data directory.
        let kept = try await daemon.todoctl("backup")
        #expect(kept.stdout.contains(daemon.directory + "/backups/todos-"), "\(kept.stdout)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("--database naming another program's SQLite file is refused, and the file is left exactly as it was")
    func foreignDatabaseIsRefused() async throws {
        let directory = try makeTemporaryDirectory()
        let path = directory + "/notes.db"
        let result = try await run("/usr/bin/sqlite3", [path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');"])
        #expect(result.status == 0, "\(result.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = try await run("todod", ["--socket", try makeTemporaryDirectory() + "/todod.sock", "--database", path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("another program's SQLite database"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--database"))
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after == before)
        let result2 = try await run("/usr/bin/sqlite3", [path, "PRAGMA journal_mode"])
        #expect(result2.stdout == "delete\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files == ["notes.db"])
    }

    @Test(
        "a read-only database is refused at start, leaves no -shm behind, and works once made writable again",
        .enabled(if: getuid() == 0, "needs root to act as another user"))
    func readOnlyDatabase() async throws {
        let first = try await DaemonProcess.start(user: Self.otherUser)
        let result = try await todoctl(as: Self.otherUser, first, "add", "kept")
        #expect(result.status == 0, "\(result.stderr)")
        let exitStatus = try await first.stop()
        #expect(exitStatus == 0)
        let sidecars = [first.databasePath + "-wal", first.databasePath + "-shm"]

        chmod(first.databasePath, 0o444)
        let refused = try await run(
            "/usr/bin/setpriv", userArguments(Self.otherUser) + [binaryDirectory + "/todod", "--socket", first.socketPath, "--database", first.databasePath],
            timeout: 15)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("read-only"), "\(refused.stderr)")
        #expect(refused.stderr.contains("chmod u+rw \(first.databasePath)"))
        #expect(sidecars.allSatisfy { !FileManager.default.fileExists(atPath: $0) })

        chmod(first.databasePath, 0o600)
        let again = try await DaemonProcess.start(in: first.directory, user: Self.otherUser)
        let result2 = try await todoctl(as: Self.otherUser, again, "add", "after the fix")
        #expect(result2.status == 0, "\(result2.stderr)")
        let result3 = try await todoctl(as: Self.otherUser, again, "list")
        #expect(result3.stdout.contains("kept"))
        let exitStatus2 = try await again.stop()
        #expect(exitStatus2 == 0)
    }

    @Test(
        "a read-only -shm left by an older todod is made writable again, and writes work",
        .enabled(if: getuid() == 0, "needs root to act as another user"))
    func readOnlySharedMemoryIsRecovered() async throws {
        let first = try await DaemonProcess.start(user: Self.otherUser)
        let exitStatus = try await first.stop()
        #expect(exitStatus == 0)
        // What todod 0.1.0 left after starting on a read-only file: a 0444 -shm of the user's.
        let shm = first.databasePath + "-shm"
        #expect(FileManager.default.createFile(atPath: shm, contents: Data(count: 32768), attributes: [.posixPermissions: 0o444]))
        chown(shm, Self.otherUser, Self.otherUser)
        let again = try await DaemonProcess.start(in: first.directory, user: Self.otherUser)
        let added = try await todoctl(as: Self.otherUser, again, "add", "written")
        #expect(added.status == 0, "\(added.stderr)")
        let exitStatus2 = try await again.stop()
        #expect(exitStatus2 == 0)
    }

    private func userArguments(_ user: UInt32) -> [String] {
        ["--reuid=\(user)", "--regid=\(user)", "--clear-groups"]
    }

    /// `todoctl` run as `user`, the daemon's own user (the daemon refuses anyone else).
    private func todoctl(as user: UInt32, _ daemon: DaemonProcess, _ arguments: String...) async throws -> CommandResult {
        try await run("/usr/bin/setpriv", userArguments(user) + [binaryDirectory + "/todoctl"] + arguments, environment: daemon.environment)
    }
}
