import Foundation
import TestHarness
import Testing
import TodoClient
import TodoEvents
import TodoModel

@Suite("todod as a process")
struct DaemonTests {
    @Test("the daemon speaks first: hello with the protocol version and the current sequence number")
    func helloComesFirst() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "one")
        let hello = try jsonObject(try #require(try await daemon.connect().readLine()))
        #expect(hello["event"] as? String == "responseHello")
        #expect(hello.path("data", "protocol") as? Int == 1)
        #expect(hello.path("data", "seq") as? Int == 1)
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
    }

    @Test("a client connected before an add hears it, and so does every other client")
    func everyClientHearsEveryChange() async throws {
        let daemon = try await DaemonProcess.start()
        let client = try await TodoClient.connect(to: daemon.socketPath)
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        let added = try await daemon.todoctl("add", "Buy", "milk", "--tag", "home")
        #expect(added.status == 0)
        var changes = client.broadcasts.makeAsyncIterator()
        guard case .frame(let frame)? = await changes.next(), case .responseTodoViewModel(let change) = frame.event else {
            throw TestFailure("expected a change first")
        }
        #expect(change.kind == .created)
        #expect(change.todo.title == "Buy milk")
        #expect(change.sequence == 1)
        let line = try jsonObject(try await raw.awaitLine(containing: "responseTodoViewModel"))
        #expect(line.path("data", "change") as? String == "created")
        #expect(line.path("data", "todo", "tags") as? [String] == ["home"])
        await client.close()
        try await daemon.stop()
    }

    @Test("data survives a restart: numbers, states and the change sequence")
    func dataSurvivesRestart() async throws {
        let first = try await DaemonProcess.start()
        _ = try await first.todoctl("add", "keep me")
        _ = try await first.todoctl("add", "finish me", "--priority", "high", "--due", "2031-05-06")
        _ = try await first.todoctl("done", "2")
        let exitStatus = try await first.stop()
        #expect(exitStatus == 0)

        let second = try await DaemonProcess.start(in: first.directory)
        let todos = try jsonArray(try await second.todoctl("list", "--all", "--json").stdout)
        #expect(todos.map { $0["title"] as? String } == ["keep me", "finish me"])
        #expect(todos[1]["completedAt"] is String)
        #expect(todos[1]["due"] as? String == "2031-05-06")
        #expect(todos[1]["priority"] as? String == "high")
        let hello = try jsonObject(try #require(try await second.connect().readLine()))
        #expect(hello.path("data", "seq") as? Int == 3)
        let added = try await second.todoctl("add", "third", "--json")
        #expect(added.stdout.contains("\"number\" : 3"))
        try await second.stop()
    }

    @Test("a second daemon on a live socket refuses to start and says why")
    func secondDaemonRefuses() async throws {
        let daemon = try await DaemonProcess.start()
        let second = try await run("todod", ["--socket", daemon.socketPath, "--database", daemon.directory + "/other.sqlite"])
        #expect(second.status != 0)
        #expect(second.stderr.contains("already listening on \(daemon.socketPath)"))
        let listed = try await daemon.todoctl("list")
        #expect(listed.status == 0, "\(listed.stderr)")
        try await daemon.stop()
    }

    @Test("a stale socket file left by a crashed daemon is replaced")
    func staleSocketIsReplaced() async throws {
        let crashed = try await DaemonProcess.start()
        _ = try await crashed.todoctl("add", "before the crash")
        kill(crashed.pid, SIGKILL)
        _ = try await crashed.waitForExit()
        #expect(FileManager.default.fileExists(atPath: crashed.socketPath))
        let check = try await crashed.check()
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let restarted = try await DaemonProcess.start(in: crashed.directory)
        let listed = try await restarted.todoctl("list")
        #expect(listed.stdout.contains("before the crash"))
        try await restarted.stop()
    }

    @Test("the socket file is private to its user (mode 0600)")
    func socketIsPrivate() async throws {
        let daemon = try await DaemonProcess.start()
        let attributes = try FileManager.default.attributesOfItem(atPath: daemon.socketPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try await daemon.stop()
    }

    @Test("SIGTERM: clients are told, the socket file is removed, exit status 0")
    func sigtermIsGraceful() async throws {
        let daemon = try await DaemonProcess.start()
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
        let goodbye = try jsonObject(try await raw.awaitLine(containing: "responseGoodbye"))
        #expect(goodbye.path("data", "code") as? String == "shuttingDown")
        let line = try await raw.readLine()
        #expect(line == nil)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test("a request sent just before the client closes its side is still answered")
    func halfClosedClientIsAnswered() async throws {
        let daemon = try await DaemonProcess.start()
        let raw = try daemon.connect()
        try raw.send(#"{"event":"requestNewTodo","id":"a","data":{"title":"piped"}}"# + "\n")
        raw.shutdownWrite()
        let answer = try jsonObject(try await raw.awaitLine(containing: "\"id\":\"a\""))
        #expect(answer.path("data", "todo", "title") as? String == "piped")
        let line = try await raw.readLine()
        #expect(line == nil)
        try await daemon.stop()
    }

    @Test("a peer of another user is refused, whatever the socket's mode", .enabled(if: getuid() == 0, "needs root to act as another user"))
    func otherUserIsRefused() async throws {
        let daemon = try await DaemonProcess.start()
        chmod(daemon.directory, 0o711)
        chmod(daemon.socketPath, 0o666)
        let other = try await run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "socat", "-t", "10", "-", "UNIX-CONNECT:\(daemon.socketPath)"])
        let goodbye = try jsonObject(try #require(other.lines.first))
        #expect(goodbye["event"] as? String == "responseGoodbye")
        #expect(goodbye.path("data", "code") as? String == "permissionDenied")
        let listed = try await daemon.todoctl("list")
        #expect(listed.status == 0, "\(listed.stderr)")
        try await daemon.stop()
    }
}
