import Foundation
import TestHarness
import Testing

/// Text that would command a terminal, and requests sized to stall the daemon, sent as
/// another program (a raw socket) or a person (`todoctl`) would send them.
@Suite("hostile titles and tag floods")
struct HostileInputTests {
    /// Retitles the terminal, rings its bell and clears the screen, if printed raw.
    static let hostileTitle = "x \u{1B}]0;PWNED\u{07} \u{1B}[2J"

    @Test("a title with escape sequences is refused on the wire, saying which character")
    func rawFrameRefused() async throws {
        let daemon = try await DaemonProcess.start()
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        try raw.send(#"{"event":"requestNewTodo","id":"esc","data":{"title":"x \u001b]0;PWNED\u0007 \u001b[2J"}}"# + "\n")
        let error = try jsonObject(try await raw.awaitLine(containing: "\"id\":\"esc\""))
        #expect(error["event"] as? String == "responseError")
        #expect(error.path("data", "field") as? String == "title")
        #expect((error.path("data", "message") as? String ?? "").contains("control character U+001B"))
        try raw.send(#"{"event":"requestNewTodo","id":"tag","data":{"title":"ok","tags":["a\u009b2J"]}}"# + "\n")
        let tagError = try jsonObject(try await raw.awaitLine(containing: "\"id\":\"tag\""))
        #expect(tagError.path("data", "field") as? String == "tags")
        let listed = try await daemon.todoctl("list", "--all", "--json")
        #expect(listed.stdout.contains("PWNED") == false)
        try await daemon.stop()
    }

    @Test("todoctl add refuses such a title, and its message carries no escape")
    func addRefused() async throws {
        let daemon = try await DaemonProcess.start()
        let added = try await daemon.todoctl("add", Self.hostileTitle)
        #expect(added.status == 1)
        #expect(added.stderr.contains("control character U+001B"))
        #expect(!added.stderr.contains("\u{1B}") && !added.stdout.contains("\u{1B}"))
        let tagged = try await daemon.todoctl("add", "fine", "--tag", "bad\u{07}")
        #expect(tagged.status == 1)
        #expect(tagged.stderr.contains("bad<U+0007>"), "\(tagged.stderr)")
        #expect(!tagged.stderr.contains("\u{07}"))
        try await daemon.stop()
    }

    @Test("an argument that is not UTF-8 is refused, naming it with its bytes written out, and nothing is added (it was stored with U+FFFD)", arguments: [
        (#"add "$(printf 'Caf\351 au lait')""#, #"argument 2, "Caf\xE9 au lait", is not UTF-8"#),
        (#"add Fine -t "$(printf 't\377')""#, #"argument 4, "t\xFF", is not UTF-8"#),
        (#"edit 1 --title "$(printf '\303')""#, #"argument 4, "\xC3", is not UTF-8"#),
    ])
    func notUTF8(command: String, message: String) async throws {
        let daemon = try await DaemonProcess.start()
        // Through sh: a Swift String cannot hold bytes that are not UTF-8, printf writes them.
        let result = try await run("/bin/sh", ["-c", "\"$TODOCTL\" \(command)"], environment: daemon.environment.merging(["TODOCTL": binaryDirectory + "/todoctl"]) { $1 })
        #expect(result.status == 64, "\(result.stdout)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{FFFD}"), "\(result.stderr)")
        let listed = try jsonArray(try await daemon.todoctl("list", "--all", "--json").stdout)
        #expect(listed.isEmpty, "\(listed)")
        try await daemon.stop()
    }

    @Test("a hundred thousand tags are refused at once, and another writer does not wait")
    func tagFloodOnTheWire() async throws {
        let daemon = try await DaemonProcess.start()
        let raw = try daemon.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        let tags = (0..<100_000).map { "\"t\($0)\"" }.joined(separator: ",")
        try raw.send(#"{"event":"requestNewTodo","id":"flood","data":{"title":"x","tags":["# + tags + "]}}\n")
        let bystander = try await daemon.todoctl("add", "bystander")
        // Refused while decoding, past the 32nd tag (quadratic checks held every writer for
        // 8.6 s in release, 530 s in a loaded debug build): the frame breaks a limit, so the
        // answer has no id.
        let error = try jsonObject(try await raw.awaitLine(containing: "badRequest"))
        #expect(bystander.status == 0)
        #expect((error.path("data", "message") as? String ?? "").contains("at most 256"), "\(error)")
        try await daemon.stop()
    }

    @Test("todoctl add with 20,000 --tag options fails at once, saying the limit")
    func tagFloodOnTheCommandLine() async throws {
        let daemon = try await DaemonProcess.start()
        let arguments = ["add", "x"] + (0..<20_000).flatMap { ["--tag", "t\($0)"] }
        let added = try await run("todoctl", arguments, environment: daemon.environment)
        // Counted before ArgumentParser reads them (it alone took 22 s of CPU over 20,000).
        #expect(added.status == 64)
        #expect(added.stderr.contains("--tag is given 20000 times; the most is 256"), "\(added.stderr)")
        try await daemon.stop()
    }
}
