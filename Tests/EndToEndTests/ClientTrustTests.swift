import Foundation
import Testing

/// The client checks the server as the server checks its clients: a socket another local
/// user could have planted is refused before anything is sent, and todod does not follow
/// another user's symbolic link to a directory. Root acts as the victim, `nobody` (65534)
/// as the other user.
@Suite("whom todoctl talks to", .enabled(if: getuid() == 0, "needs root to act as another user"))
struct ClientTrustTests {
    private let nobody: uid_t = 65534

    /// A fake todod run by `nobody` at `socketPath`: it says a plausible hello and keeps
    /// whatever it is sent in `received` (a script, so that socat's address syntax does
    /// not meet the JSON's commas).
    private func fakeServer(at socketPath: String, received: String) async throws -> ChildProcess {
        let hello = #"{"client":1,"data":{"client":1,"protocol":1,"seq":0,"server":"0.1.0"},"event":"responseHello"}"#
        let script = (socketPath as NSString).deletingLastPathComponent + "/fake-todod.sh"
        try "#!/bin/sh\nprintf '%s\\n' '\(hello)'\nexec cat >> '\(received)'\n".write(toFile: script, atomically: false, encoding: .utf8)
        chmod(script, 0o755)
        let server = try ChildProcess(
            "/usr/bin/setpriv",
            ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups",
             "socat", "-d", "-d", "UNIX-LISTEN:\(socketPath),fork,mode=777", "EXEC:\(script)"],
            environment: ["PATH": "/usr/bin:/bin"])
        _ = try await server.awaitLine(containing: "listening on")
        return server
    }

    /// A directory the test owns that `nobody` may enter but not write.
    private func sharedBase() throws -> String {
        let base = try makeTemporaryDirectory()
        chmod(base, 0o755)
        return base
    }

    @Test("a socket in another user's world-writable directory is refused (exit 77) and told nothing")
    func plantedDirectoryIsRefused() async throws {
        let base = try sharedBase()
        // What `/tmp/todod-UID` is when another user made it first.
        let planted = base + "/todod-\(getuid())"
        mkdir(planted, 0o777)
        chmod(planted, 0o777)
        chown(planted, nobody, nobody)
        let received = planted + "/received"
        let server = try await fakeServer(at: planted + "/todod.sock", received: received)
        defer { server.stopNow() }

        let add = try await run("todoctl", ["add", "my bank PIN is 1234"], environment: ["TODOD_SOCKET": planted + "/todod.sock"])
        #expect(add.status == 77)
        #expect(add.stderr.contains("belongs to user \(nobody)"))
        #expect(add.stderr.contains("XDG_RUNTIME_DIR"))
        let list = try await run("todoctl", ["list"], environment: ["TODOD_SOCKET": planted + "/todod.sock"])
        #expect(list.status == 77)
        #expect(list.stdout.isEmpty)
        let leaked = (try? String(contentsOfFile: received, encoding: .utf8)) ?? ""
        #expect(!leaked.contains("PIN"), "the fake server received: \(leaked)")
    }

    @Test("a directory of one's own that others may write is refused too")
    func writableDirectoryIsRefused() async throws {
        let base = try sharedBase()
        let open = base + "/open"
        mkdir(open, 0o777)
        chmod(open, 0o777)
        let result = try await run("todoctl", ["list"], environment: ["TODOD_SOCKET": open + "/todod.sock"])
        #expect(result.status == 77)
        #expect(result.stderr.contains("writable by other users (mode 777)"))
    }

    @Test("a server of another user in one's own private directory is refused by its peer credentials")
    func otherUsersServerIsRefused() async throws {
        let base = try sharedBase()
        let theirs = base + "/theirs"
        mkdir(theirs, 0o700)
        chown(theirs, nobody, nobody)
        let server = try await fakeServer(at: theirs + "/todod.sock", received: theirs + "/received")
        defer { server.stopNow() }
        // The same listening socket, reached through a name in a directory that passes every check.
        let mine = try makeTemporaryDirectory()
        #expect(link(theirs + "/todod.sock", mine + "/todod.sock") == 0)

        let add = try await run("todoctl", ["add", "secret"], environment: ["TODOD_SOCKET": mine + "/todod.sock"])
        #expect(add.status == 77)
        #expect(add.stderr.contains("runs as user \(nobody), not as you"))
        // The long-lived client (events, watch) applies the same check.
        let events = try await run("todoctl", ["events", "--once"], environment: ["TODOD_SOCKET": mine + "/todod.sock"], timeout: 10)
        #expect(events.status == 77)
        #expect(events.stderr.contains("runs as user \(nobody)"))
        let received = (try? String(contentsOfFile: theirs + "/received", encoding: .utf8)) ?? ""
        #expect(!received.contains("secret"))
    }

    @Test("todod refuses a socket directory that is another user's symbolic link to the victim's directory")
    func daemonRefusesSymlinkedDirectory() async throws {
        let base = try sharedBase()
        let victim = base + "/victim"
        mkdir(victim, 0o700)
        let planted = base + "/todod-\(getuid())"
        #expect(symlink(victim, planted) == 0)
        #expect(lchown(planted, nobody, nobody) == 0)

        let daemon = try await run(
            "todod", ["--socket", planted + "/todod.sock", "--database", victim + "/todos.sqlite"], timeout: 10)
        #expect(daemon.status != 0)
        #expect(daemon.stderr.contains("is a symbolic link"))
        #expect(!FileManager.default.fileExists(atPath: victim + "/todod.sock"))
    }
}
