import Foundation
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
        #expect(try await daemon.todoctl("add", "still served").status == 0)
        #expect(try await daemon.stop() == 0)
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
        #expect(try await daemon.stop() == 0)
    }

    @Test("two todod started at the same instant on one socket: one serves, the other refuses, 10 times out of 10")
    func simultaneousStarts() async throws {
        for round in 1...10 {
            let directory = try makeTemporaryDirectory()
            let socket = directory + "/todod.sock"
            let pair = try (0..<2).map { index in
                try RacingDaemon(socket: socket, database: directory + "/db\(index).sqlite", directory: directory)
            }
            for daemon in pair { try daemon.process.run() }
            let loser = try await RacingDaemon.firstToExit(pair)
            let winner = pair[1 - loser]
            #expect(pair[loser].process.terminationStatus != 0, "round \(round)")
            #expect(pair[loser].stderr.contains("already listening on \(socket)"), "round \(round): \(pair[loser].stderr)")
            _ = try await winner.notify.awaitMessage(containing: "READY=1")
            let status = try await run("todoctl", ["status"], environment: ["TODOD_SOCKET": socket])
            #expect(status.status == 0, "round \(round): the socket of the daemon that runs was taken away: \(status.stderr)")
            kill(winner.process.processIdentifier, SIGTERM)
            try await blocking { winner.process.waitUntilExit() }
            #expect(winner.process.terminationStatus == 0)
        }
    }
}

/// A todod started bare (no waiting for it), to race another.
final class RacingDaemon: @unchecked Sendable {
    let process = Process()
    let notify: NotifyListener
    private let errorPath: String

    init(socket: String, database: String, directory: String) throws {
        errorPath = database + ".stderr"
        notify = try NotifyListener(path: database + ".notify")
        process.executableURL = URL(fileURLWithPath: binaryDirectory + "/todod")
        process.arguments = ["--socket", socket, "--database", database]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        process.environment = environment
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardOutput = FileHandle.nullDevice
    }

    var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The index of the first of `daemons` to exit; fails if none does within 20 s.
    static func firstToExit(_ daemons: [RacingDaemon]) async throws -> Int {
        try await blocking {
            let exited = NSCondition()
            nonisolated(unsafe) var first: Int?
            for (index, daemon) in daemons.enumerated() {
                Thread {
                    daemon.process.waitUntilExit()
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

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        notify.close()
    }
}
