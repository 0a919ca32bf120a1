import Foundation
import Testing

/// todoctl reads its most common forms (`list`, `next`, `show N`, `done N`, `add words`)
/// without ArgumentParser, for speed (Sources/todoctl/QuickCommand.swift). Any option sends
/// a command through ArgumentParser, so each form is run twice, plain and with `--socket`,
/// and both must print and exit alike.
@Suite("todoctl's quick forms against ArgumentParser's reading of them")
struct QuickCommandTests {
    @Test("list, ls, next, today and todoctl alone print what they print with --socket, at every state of the list")
    func readsMatch() async throws {
        let daemon = try await DaemonProcess.start()
        let forms: [[String]] = [[], ["list"], ["ls"], ["next"], ["today"], ["show", "1"], ["show", "#2"], ["show", "9"]]
        try await expectSameOutput(daemon, forms)  // empty
        _ = try await daemon.todoctl("add", "Pay", "rent", "-p", "high", "-d", "2020-01-01", "-t", "home")
        _ = try await daemon.todoctl("add", "Read", "–", "a", "book", "📚", "-n", "notes\nover lines")
        _ = try await daemon.todoctl("add", "Chapter", "one", "--parent", "2")
        _ = try await daemon.todoctl("add", "Later", "--wait", "2099-01-01")
        _ = try await daemon.todoctl("add", "Finished", "-p", "high")
        _ = try await daemon.todoctl("done", "5", "--socket", daemon.socketPath)
        try await expectSameOutput(daemon, forms + [["show", "3"], ["show", "4"], ["show", "5"]])
        try await daemon.stop()
    }

    @Test("done N and add words change todos as they do with --socket, and refuse alike")
    func writesMatch() async throws {
        let daemon = try await DaemonProcess.start()
        for _ in 0..<4 { _ = try await daemon.todoctl("add", "Same") }
        let parent = try await daemon.todoctl("add", "Parent")
        _ = try await daemon.todoctl("add", "Child", "--parent", "5")
        #expect(parent.status == 0)

        let quick = try await daemon.todoctl("done", "1", "2")
        let parsed = try await daemon.todoctl("done", "3", "4", "--socket", daemon.socketPath)
        #expect(quick.status == 0 && parsed.status == 0, "\(quick.stderr) \(parsed.stderr)")
        #expect(quick.stdout == "done #1 Same\ndone #2 Same\n", "\(quick.stdout)")
        #expect(parsed.stdout == "done #3 Same\ndone #4 Same\n", "\(parsed.stdout)")
        for refused in [["done", "42"], ["done", "5"], ["done", "1"]] {
            let (plain, withSocket) = try await bothWays(daemon, refused)
            #expect(plain == withSocket, "\(refused): \(plain) against \(withSocket)")
        }
        let unknown = try await daemon.todoctl("done", "42")
        #expect(unknown.status == 1 && unknown.stderr.contains("no todo #42"), "\(unknown)")

        let added = try await daemon.todoctl("add", "Buy", "milk", "and", "bread")
        let addedParsed = try await daemon.todoctl("add", "Buy", "milk", "and", "bread", "--socket", daemon.socketPath)
        #expect(added.stdout == "added #7 Buy milk and bread\n", "\(added.stdout) \(added.stderr)")
        #expect(addedParsed.stdout == "added #8 Buy milk and bread\n", "\(addedParsed.stdout) \(addedParsed.stderr)")
        let todos = try jsonArray(try await daemon.todoctl("list", "--json", "--search", "milk").stdout)
        let fields = todos.map { todo in ["title", "notes", "priority", "tags", "due"].map { "\(todo[$0] ?? "-")" } }
        #expect(fields.count == 2 && fields[0] == fields[1], "\(fields)")
        try await daemon.stop()
    }

    /// Each form, plain and with `--socket`, prints the same and exits the same.
    private func expectSameOutput(_ daemon: DaemonProcess, _ forms: [[String]]) async throws {
        for form in forms {
            let (plain, withSocket) = try await bothWays(daemon, form)
            #expect(plain == withSocket, "\(form): \(plain) against \(withSocket)")
        }
    }

    /// The form's status, output and errors, run plain and with `--socket`.
    private func bothWays(_ daemon: DaemonProcess, _ form: [String]) async throws -> (plain: [String], withSocket: [String]) {
        let plain = try await run("todoctl", form, environment: daemon.environment)
        let withSocket = try await run("todoctl", form + ["--socket", daemon.socketPath], environment: daemon.environment)
        return ([String(plain.status), plain.stdout, plain.stderr], [String(withSocket.status), withSocket.stdout, withSocket.stderr])
    }
}
