import Foundation
import Testing
import TodoClient
import TodoEvents
import TodoModel

/// The client's side of the connection: where it connects, what it says when the daemon
/// hangs up, coming back after a restart, and a bound on what it holds unread.
@Suite("todoctl's connection")
struct ClientConnectionTests {
    /// The environment of this test process, for a child that gets exactly what it is given.
    private func environment(_ extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }.merging(extra) { $1 }
    }

    @Test("--socket works before the command as well as after it")
    func socketBeforeCommand() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "reachable")
        let before = try await run("todoctl", ["--socket", daemon.socketPath, "list"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.contains("reachable"))
        let joined = try await run("todoctl", ["--socket=\(daemon.socketPath)", "ls", "--json"])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("reachable"))
        let after = try await run("todoctl", ["list", "--socket", daemon.socketPath])
        #expect(after.stdout == before.stdout)
        try await daemon.stop()
    }

    @Test("a request over 1 MiB reports the daemon's frameTooLong goodbye, not a version mismatch")
    func oversizedRequestSaysWhy() async throws {
        let daemon = try await DaemonProcess.start()
        // Ten words of 110,000 characters: a 1.1 MB title, within what exec passes to a program.
        let words = (0..<10).map { _ in String(repeating: "w", count: 110_000) }
        // Whether the goodbye is read before the reset was a race (about 3 runs in 10 lost it): try several.
        for _ in 0..<8 {
            let result = try await run("todoctl", ["add"] + words, environment: daemon.environment)
            #expect(result.status == 69)
            #expect(!result.stderr.contains("same version"))
            #expect(result.stderr.contains("todod closed the connection: a line was longer than 1048576 bytes"), "\(result.stderr)")
        }
        let added = try await daemon.todoctl("add", "still fine")
        #expect(added.status == 0, "\(added.stderr)")
        try await daemon.stop()
    }

    @Test("events says so when the daemon goes away and carries on once it is back")
    func eventsReconnects() async throws {
        let daemon = try await DaemonProcess.start()
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: environment(daemon.environment))
        defer { events.stopNow() }
        try await awaitClients(2, on: daemon)
        _ = try await daemon.todoctl("add", "before")
        _ = try await events.awaitLine(containing: "1 added #1 before")
        kill(daemon.pid, SIGKILL)
        _ = try await daemon.waitForExit()
        _ = try await events.awaitLine(containing: "connecting again in")
        let restarted = try await DaemonProcess.start(in: daemon.directory)
        _ = try await events.awaitLine(containing: "reconnected")
        _ = try await restarted.todoctl("add", "after")
        _ = try await events.awaitLine(containing: "2 added #2 after")
        try await restarted.stop()
    }

    @Test("events --once exits 69 when the daemon goes away, as scripts expect")
    func eventsOnceExits() async throws {
        let daemon = try await DaemonProcess.start()
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events", "--once"], environment: environment(daemon.environment))
        try await awaitClients(2, on: daemon)
        try await daemon.stop()
        let exitStatus = try await events.waitForExit()
        #expect(exitStatus == 69)
        let output = try await events.outputToItsEnd(timeout: 5)
        #expect(output.contains("shutting down"))
    }

    @Test("a client that does not read holds a bounded number of changes, then one marker that says some were missed")
    func unreadBroadcastsAreBounded() async throws {
        let daemon = try await DaemonProcess.start()
        let idle = try await TodoClient.connect(to: daemon.socketPath, unreadBroadcastLimit: 5)
        let path = daemon.socketPath
        try await blocking {
            let writer = try TodoConnection(path: path)
            for index in 1...20 { _ = try writer.request(.requestNewTodo(NewTodo(title: "change \(index)"))) }
        }
        // Answered after the 20 changes on the same connection: they have all arrived by now.
        _ = try await idle.request(.requestStatus)
        var broadcasts = idle.broadcasts.makeAsyncIterator()
        var heard: [String] = []
        for _ in 0..<6 { heard.append(Self.describe(await broadcasts.next())) }
        #expect(heard == ["1", "2", "3", "4", "5", "missed"])
        // Once the marker is read, changes flow again.
        try await blocking { _ = try TodoConnection(path: path).request(.requestNewTodo(NewTodo(title: "after reading"))) }
        let next = await broadcasts.next()
        #expect(Self.describe(next) == "21")
        await idle.close()
        try await daemon.stop()
    }

    /// A change by its sequence number, the marker as "missed".
    private static func describe(_ broadcast: Broadcast?) -> String {
        switch broadcast {
        case .frame(let frame)?:
            if case .responseTodoViewModel(let change) = frame.event { return "\(change.sequence)" }
            return frame.event.kind.rawValue
        case .missed?: return "missed"
        case nil: return "end"
        }
    }
}
