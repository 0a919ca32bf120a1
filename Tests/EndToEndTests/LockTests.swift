import Foundation
import TestHarness
import Testing

/// One daemon per database and per socket, whatever the timing: the lock files beside
/// them are held with `flock` for the daemon's life.
@Suite("One writer, end to end")
struct LockTests {
    @Test("a second todod on the same database, on another socket, refuses and names the first's pid and socket")
    func secondDaemonOnOneDatabase() async throws {
        let daemon = try await DaemonProcess.start()
        let otherSocket = try makeTemporaryDirectory() + "/other.sock"
        let second = try await run("todod", ["--socket", otherSocket, "--database", daemon.databasePath])
        #expect(second.status != 0)
        #expect(second.stderr.contains("pid \(daemon.pid)"), "\(second.stderr)")
        #expect(second.stderr.contains(daemon.socketPath))
        #expect(!FileManager.default.fileExists(atPath: otherSocket))
        let added = try await daemon.todoctl("add", "still served")
        #expect(added.status == 0, "\(added.stderr)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("a second todod on the same database through a symbolic link refuses too")
    func secondDaemonThroughALink() async throws {
        let daemon = try await DaemonProcess.start()
        let elsewhere = try makeTemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: elsewhere + "/todos.sqlite", withDestinationPath: daemon.databasePath)
        let second = try await run("todod", ["--socket", elsewhere + "/todod.sock", "--database", elsewhere + "/todos.sqlite"])
        #expect(second.status != 0)
        #expect(second.stderr.contains("pid \(daemon.pid)"), "\(second.stderr)")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("a second todod on a hard link to the database refuses and names the first's pid, though todod made the file; so does --migrate-to (probe Q4)")
    func secondDaemonThroughAHardLink() async throws {
        let daemon = try await DaemonProcess.start()
        let added = try await daemon.todoctl("add", "real one")
        #expect(added.status == 0, "\(added.stderr)")
        let elsewhere = try makeTemporaryDirectory()
        #expect(link(daemon.databasePath, elsewhere + "/todos.sqlite") == 0)
        let second = try await run("todod", ["--socket", elsewhere + "/todod.sock", "--database", elsewhere + "/todos.sqlite"])
        #expect(second.status != 0)
        #expect(second.stderr.contains("hard link"), "\(second.stderr)")
        #expect(second.stderr.contains("pid \(daemon.pid)"), "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere + "/todod.sock"))
        let migrated = try await run("todod", ["--migrate-to", "postgresql://nobody@/todos?host=/nonexistent", "--database", elsewhere + "/todos.sqlite"])
        #expect(migrated.status != 0)
        #expect(migrated.stderr.contains("hard link"), "\(migrated.stderr)")
        let listed = try await daemon.todoctl("list")
        #expect(listed.stdout.contains("real one"))
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("a second todod on a busy socket refuses before creating its database or its directory")
    func busySocketCreatesNothing() async throws {
        let daemon = try await DaemonProcess.start()
        let unused = try makeTemporaryDirectory() + "/data"
        let second = try await run("todod", ["--socket", daemon.socketPath, "--database", unused + "/todos.sqlite"])
        #expect(second.status != 0)
        #expect(second.stderr.contains("already listening on \(daemon.socketPath)"), "\(second.stderr)")
        #expect(second.stderr.contains("pid \(daemon.pid)"))
        #expect(!FileManager.default.fileExists(atPath: unused))
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("two todod started at the same instant on one socket: one serves, the other refuses, 10 times out of 10")
    func simultaneousStarts() async throws {
        for round in 1...10 {
            let directory = try makeTemporaryDirectory()
            let socket = directory + "/todod.sock"
            let pair = try (0..<2).map { index in
                try RacingDaemon(socket: socket, database: directory + "/db\(index).sqlite", directory: directory)
            }
            for daemon in pair { try daemon.start() }
            let loser = try await RacingDaemon.firstToExit(pair)
            let winner = pair[1 - loser]
            #expect(pair[loser].status != 0, "round \(round)")
            #expect(pair[loser].stderr.contains("already listening on \(socket)"), "round \(round): \(pair[loser].stderr)")
            _ = try await winner.notify.awaitMessage(containing: "READY=1")
            let status = try await run("todoctl", ["status"], environment: ["TODOD_SOCKET": socket])
            #expect(status.status == 0, "round \(round): the socket of the daemon that runs was taken away: \(status.stderr)")
            kill(winner.pid, SIGTERM)
            let exitStatus = try await winner.waitForExit()
            #expect(exitStatus == 0)
        }
    }
}

/// A todod started bare (no waiting for it), to race another: made first, started with `start()`
/// right after its rival.
final class RacingDaemon: @unchecked Sendable {
    let notify: NotifySocket
    private let arguments: [String]
    private let errorPath: String
    private var process: SpawnedProcess?

    init(socket: String, database: String, directory: String) throws {
        arguments = ["--socket", socket, "--database", database]
        errorPath = database + ".stderr"
        notify = try NotifySocket(path: database + ".notify")
    }

    func start() throws {
        process = try SpawnedProcess(
            binaryDirectory + "/todod", arguments, environment: inheritedEnvironment(["NOTIFY_SOCKET": notify.path]),
            output: .null, errors: .file(errorPath))
    }

    var pid: pid_t { process?.pid ?? 0 }
    /// Its exit status once it ended (nil while it runs).
    var status: Int32? { process?.status }

    /// Its exit status, however long it takes, blocking this thread.
    func waitUntilExit() -> Int32 { process?.waitUntilExit() ?? -1 }

    func waitForExit() async throws -> Int32 {
        guard let process else { throw TestFailure("this todod was never started") }
        return try await process.waitForExit()
    }

    var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The index of the first of `daemons` to exit; fails if none does within 20 s.
    static func firstToExit(_ daemons: [RacingDaemon]) async throws -> Int {
        try await blocking {
            let exited = NSCondition()
            nonisolated(unsafe) var first: Int?
            for (index, daemon) in daemons.enumerated() {
                Thread {
                    _ = daemon.waitUntilExit()
                    exited.withLock {
                        if first == nil { first = index }
                        exited.broadcast()
                    }
                }.start()
            }
            return try exited.withLock {
                let deadline = Date().addingTimeInterval(20)
                while first == nil {
                    guard exited.wait(until: deadline) else { throw TestFailure("both daemons are still running after 20 s") }
                }
                return first!
            }
        }
    }

    // The SpawnedProcess kills a daemon still running as it goes.
    deinit {
        notify.close()
    }
}
