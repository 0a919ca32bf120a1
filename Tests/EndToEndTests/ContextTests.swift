import Foundation
import Testing

/// `todoctl context`: named filters that list, next and watch apply, kept in the user's
/// config directory.
@Suite("todoctl context against a real daemon")
struct ContextTests {
    /// #1 work at the office (high), #2 work at home (high), #3 home (high): all three in `next`.
    private func daemonWithWork() async throws -> DaemonProcess {
        let daemon = try await DaemonProcess.start()
        for words in [["Write report", "project:work", "+office", "pri:H"], ["Read mail", "project:work", "pri:H"], ["Water plants", "project:home", "pri:H"]] {
            let added = try await run("todoctl", ["add"] + words, environment: daemon.environment)
            #expect(added.status == 0, "\(added)")
        }
        return daemon
    }

    @Test("a context is defined, applied, listed, left with none and deleted, and the file names it")
    func defineApplyNoneDelete() async throws {
        let daemon = try await daemonWithWork()
        let defined = try await daemon.todoctl("context", "define", "work", "project:work", "+office")
        #expect(defined.status == 0, "\(defined)")
        #expect(defined.stdout.contains("context work defined: project:work +office"), "\(defined.stdout)")
        let none = try await daemon.todoctl("context")
        #expect(none.lines == ["applied: none", "  work  project:work +office"], "\(none)")
        let applied = try await daemon.todoctl("context", "work")
        #expect(applied.status == 0 && applied.stdout.contains("context work applied"), "\(applied)")
        let listed = try await daemon.todoctl("context")
        #expect(listed.lines == ["applied: work", "* work  project:work +office"], "\(listed)")
        let file = try String(contentsOfFile: daemon.contextsPath, encoding: .utf8)
        #expect(file.contains("context\twork\tproject:work\t+office\n") && file.contains("applied\twork\n"), "\(file)")
        let left = try await daemon.todoctl("context", "none")
        #expect(left.status == 0, "\(left)")
        #expect(try await daemon.todoctl("context").lines.first == "applied: none")
        #expect(try await daemon.todoctl("list").lines.count == 3)
        let deleted = try await daemon.todoctl("context", "delete", "work")
        #expect(deleted.status == 0, "\(deleted)")
        #expect(try await daemon.todoctl("context").stdout.hasPrefix("no contexts"))
        let unknown = try await daemon.todoctl("context", "work")
        #expect(unknown.status == 64 && unknown.stderr.contains("no context is called work"), "\(unknown)")
        try await daemon.stop()
    }

    @Test("an unknown context, to apply or to delete, is said in one line on stderr, with no usage under it, exit 64")
    func unknownContextSaidAlone() async throws {
        let daemon = try await daemonWithWork()
        _ = try await daemon.todoctl("context", "define", "work", "project:work")
        let applied = try await daemon.todoctl("context", "nope")
        #expect(applied.status == 64, "\(applied)")
        #expect(
            applied.stderr == "todoctl: no context is called nope (there are work): define it first with todoctl context define nope WORD…\n",
            "\(applied.stderr)")
        let deleted = try await daemon.todoctl("context", "delete", "nope")
        #expect(deleted.status == 64, "\(deleted)")
        #expect(deleted.stderr == "todoctl: no context is called nope: todoctl context lists them\n", "\(deleted.stderr)")
        try await daemon.stop()
    }

    @Test("with a context applied, list and next show only its todos and their first line names it")
    func listAndNextApplyIt() async throws {
        let daemon = try await daemonWithWork()
        _ = try await daemon.todoctl("context", "define", "work", "project:work")
        _ = try await daemon.todoctl("context", "work")
        for command in [["list"], ["next"], [], ["ls", "-t", "office"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result)")
            #expect(result.lines.first == "context: work (project:work)", "\(command): \(result.stdout)")
            let rows = result.lines.dropFirst()
            #expect(rows.contains { $0.contains("Write report") } && !rows.contains { $0.contains("Water plants") }, "\(command): \(result.stdout)")
            #expect(rows.contains { $0.contains("Read mail") } == !command.contains("office"), "\(command): \(result.stdout)")
        }
        let json = try jsonArray(try await daemon.todoctl("list", "--json").stdout)
        #expect(Set(json.compactMap { $0["number"] as? Int }) == [1, 2])
        // list's filter options and a tag to leave out, as list takes them.
        let options = try await daemon.todoctl("context", "define", "mail", "--search", "MAIL", "-office")
        #expect(options.status == 0, "\(options)")
        _ = try await daemon.todoctl("context", "mail")
        let mail = try await daemon.todoctl("list")
        #expect(mail.lines.count == 2 && mail.lines[0] == "context: mail (--search MAIL -office)" && mail.lines[1].contains("Read mail"), "\(mail)")
        // Two priorities no todo has at once: refused, naming the context.
        _ = try await daemon.todoctl("context", "define", "high", "pri:H")
        _ = try await daemon.todoctl("context", "high")
        let clash = try await daemon.todoctl("list", "pri:L")
        #expect(clash.status != 0 && clash.stderr.contains("the context high (pri:H) asks for priority high and this command for low") && clash.stderr.contains("todoctl context none"), "\(clash)")
        try await daemon.stop()
    }

    @Test("a filter word that does not read is refused at define, saying why, and nothing is written")
    func badWordRefusedAtDefine() async throws {
        let daemon = try await daemonWithWork()
        let refused = try await daemon.todoctl("context", "define", "work", "prio:H")
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("prio:") && refused.stderr.contains("pri:"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: daemon.contextsPath))
        let badName = try await daemon.todoctl("context", "define", "none", "+office")
        #expect(badName.status == 64 && badName.stderr.contains("none"), "\(badName)")
        try await daemon.stop()
    }

    @Test("a contexts file that cannot be read stops list with an error naming the file and the line")
    func unreadableFileNamed() async throws {
        let daemon = try await daemonWithWork()
        try FileManager.default.createDirectory(atPath: daemon.configDirectory + "/todod", withIntermediateDirectories: true)
        try "context\twork\tproject:work\nwhat is this\n".write(toFile: daemon.contextsPath, atomically: true, encoding: .utf8)
        for command in [["list"], ["next"], ["context"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 65, "\(command): \(result)")
            #expect(result.stderr.contains("\(daemon.contextsPath), line 2"), "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command): \(result.stdout)")
        }
        try await daemon.stop()
    }

    @Test("watch's header names the context it started with, and shows only its todos")
    func watchHeaderNamesIt() async throws {
        let daemon = try await daemonWithWork()
        _ = try await daemon.todoctl("context", "define", "work", "project:work", "+office")
        _ = try await daemon.todoctl("context", "work")
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch")
        let screen = try await tmux.waitUntil("the work list") { $0.contains("connected") && $0.contains("Write report") }
        #expect(screen.hasPrefix("todoctl watch · context: work (project:work +office) · "), "\(screen)")
        #expect(!screen.contains("Read mail") && !screen.contains("Water plants"), "\(screen)")
        await tmux.kill()
        try await daemon.stop()
    }
}
