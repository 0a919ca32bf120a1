import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The database's files planted or opened up by another user: a real second user
/// (`useradd`), the real todod refusing them, and the files left as they were.
@Suite("The database's files planted by another user, end to end", .serialized)
struct PlantedFileTests {
    @Test(
        "an empty todos.sqlite of another user's, mode 0666, is refused, saying whose it is and what to do, and left as it was",
        .enabled(if: getuid() == 0, "needs root to add a user"))
    func anotherUsersDatabaseIsRefused() async throws {
        let other = try await OtherUser()
        defer { other.remove() }
        let directory = try makeTemporaryDirectory()
        let path = directory + "/todos.sqlite"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        chown(path, other.uid, other.uid)
        chmod(path, 0o666)

        let refused = try await startRefused(database: path)
        #expect(refused.stderr.contains("belongs to user \(other.name)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("chown \(getuid()) \(path)"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["todos.sqlite"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.size] as? NSNumber == 0, "\(attributes)")
        #expect((attributes[.ownerAccountID] as? NSNumber)?.uint32Value == other.uid, "\(attributes)")
    }

    @Test(
        "a database in a directory other users may write (a shared one, mode 1777) is refused: chmod go-w, or a directory of your own",
        .enabled(if: getuid() == 0, "needs root to add a user"))
    func sharedDirectoryIsRefused() async throws {
        let other = try await OtherUser()
        defer { other.remove() }
        let shared = try makeTemporaryDirectory() + "/shared"
        #expect(mkdir(shared, 0o777) == 0)
        chmod(shared, 0o1777)
        let path = shared + "/todos.sqlite"
        // What the other user left there, ready for todod to adopt.
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o666]))
        chown(path, other.uid, other.uid)

        let refused = try await startRefused(database: path)
        #expect(refused.stderr.contains("the database's directory \(shared) is writable by other users (mode 1777)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("chmod go-w \(shared)"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared) == ["todos.sqlite"])
    }

    @Test(
        "a backups symlink to another user's directory receives no backup: todoctl backup and the next start refuse it",
        .enabled(if: getuid() == 0, "needs root to add a user"))
    func backupsSymlinkIsRefused() async throws {
        let other = try await OtherUser()
        defer { other.remove() }
        let theirs = try makeTemporaryDirectory()
        chown(theirs, other.uid, other.uid)
        let daemon = try await DaemonProcess.start()
        #expect(try await daemon.todoctl("add", "private").status == 0)
        #expect(symlink(theirs, daemon.directory + "/backups") == 0)

        let backup = try await daemon.todoctl("backup")
        #expect(backup.status != 0, "\(backup.stdout)")
        #expect(backup.stderr.contains("backups is a symbolic link"), "\(backup.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs) == [])
        #expect(try await daemon.stop() == 0)

        let refused = try await startRefused(database: daemon.databasePath)
        #expect(refused.stderr.contains("backups is a symbolic link"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs) == [])
    }

    @Test(
        "a -wal of another user's beside the database, or the database opened to others (mode 0666), is refused at start",
        .enabled(if: getuid() == 0, "needs root to add a user"))
    func plantedWriteAheadLogIsRefused() async throws {
        let other = try await OtherUser()
        defer { other.remove() }
        let first = try await DaemonProcess.start()
        #expect(try await first.todoctl("add", "mine").status == 0)
        #expect(try await first.stop() == 0)
        let wal = first.databasePath + "-wal"
        #expect(FileManager.default.createFile(atPath: wal, contents: nil, attributes: [.posixPermissions: 0o644]))
        chown(wal, other.uid, other.uid)

        let refused = try await startRefused(database: first.databasePath)
        #expect(refused.stderr.contains("write-ahead log \(wal) belongs to user \(other.name)"), "\(refused.stderr)")

        unlink(wal)
        chmod(first.databasePath, 0o666)
        let open = try await startRefused(database: first.databasePath)
        #expect(open.stderr.contains("is writable by other users (mode 666)"), "\(open.stderr)")
        #expect(open.stderr.contains("chmod go-w \(first.databasePath)"), "\(open.stderr)")

        chmod(first.databasePath, 0o600)
        let again = try await DaemonProcess.start(in: first.directory)
        #expect(try await again.todoctl("list").stdout.contains("mine"))
        #expect(try await again.stop() == 0)
    }

    /// Runs todod on `database`, expecting it to refuse at once (a start that goes on is
    /// killed after 15 s, and fails the test).
    private func startRefused(database: String) async throws -> CommandResult {
        let socket = try makeTemporaryDirectory() + "/todod.sock"
        let result = try await run("todod", ["--socket", socket, "--database", database], timeout: 15)
        #expect(result.status != 0, "todod started on \(database): \(result.stderr)")
        return result
    }
}

/// A real second local user (`useradd`), removed by `remove()`.
struct OtherUser {
    let name: String
    let uid: UInt32

    init() async throws {
        name = "todod-other-\(UInt32.random(in: 0..<1_000_000))"
        let added = try await run("/usr/sbin/useradd", ["--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name])
        guard added.status == 0, let entry = getpwnam(name) else { throw TestFailure("useradd \(name) failed: \(added.stderr)") }
        uid = entry.pointee.pw_uid
    }

    func remove() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/userdel")
        process.arguments = [name]
        try? process.run()
        process.waitUntilExit()
    }
}
