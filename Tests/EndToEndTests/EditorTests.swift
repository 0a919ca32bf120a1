import Foundation
import Testing

/// `todoctl edit` with a real terminal editor (vi) in a real terminal (tmux), and with a
/// form that does not validate, in a terminal and without one.
@Suite("todoctl edit in an editor")
struct EditorTests {
    /// A shell in tmux set up to run todoctl against `daemon` with vi as the editor
    /// (no vimrc: the same vi for every machine).
    private func terminal(_ daemon: DaemonProcess) async throws -> Tmux {
        let environment = daemon.environment.merging(["NO_COLOR": "1", "EDITOR": "vi -u NONE", "VISUAL": "", "HOME": daemon.directory]) { $1 }
        return try await Tmux(environment: environment)
    }

    /// In vi: replaces the line starting with `field:` and writes and quits.
    private func viSet(_ tmux: Tmux, _ field: String, _ value: String) async throws {
        try await tmux.keys("Escape")
        try await tmux.keys(":%s/^\(field):.*/\(field): \(value)/", "Enter")
        try await tmux.keys(":wq", "Enter")
    }

    @Test("vi runs in the foreground of the terminal, and what is saved is applied")
    func realEditor() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "draft")
        let tmux = try await terminal(daemon)
        try await tmux.type("\(binaryDirectory)/todoctl edit 1; echo \"exit=$?\"")
        // A vi outside the foreground group is stopped by SIGTTOU before it draws anything.
        try await tmux.waitFor("title: draft")
        try await viSet(tmux, "priority", "high")
        try await tmux.waitFor("exit=0")
        let screen = try await tmux.screen()
        #expect(screen.contains("edited #1 draft"))
        let json = try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)
        #expect(json["priority"] as? String == "high")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("a form that does not validate goes back to vi with the problem on top; fixed, it is applied")
    func editAgain() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "draft")
        let tmux = try await terminal(daemon)
        try await tmux.type("\(binaryDirectory)/todoctl edit 1; echo \"exit=$?\"")
        try await tmux.waitFor("title: draft")
        try await viSet(tmux, "priority", "urgent")
        try await tmux.waitFor("Edit the form again? [Y/n]")
        let screen = try await tmux.screen()
        #expect(screen.contains("\"urgent\" is not low, normal or high"))
        try await tmux.type("y")
        try await tmux.waitFor("# ERROR: priority: \"urgent\" is not low, normal or high")
        try await viSet(tmux, "priority", "low")
        try await tmux.waitFor("exit=0")
        let json = try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)
        #expect(json["priority"] as? String == "low")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("declining to edit again keeps the form and says where")
    func declineKeepsForm() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "draft")
        let tmux = try await terminal(daemon)
        try await tmux.type("\(binaryDirectory)/todoctl edit 1; echo \"exit=$?\"")
        try await tmux.waitFor("title: draft")
        // Not someday, which says that todod has no far-off day: the generic refusal is read here.
        try await viSet(tmux, "due", "whenever")
        try await tmux.waitFor("Edit the form again? [Y/n]")
        try await tmux.type("n")
        // The terminal wraps the message at 80 columns wherever its words fall: read it unwrapped.
        let screen = try await tmux.waitFor("exit=1").replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("Your form is kept in"), "\(screen)")
        #expect(screen.contains("\"whenever\" is not a date"), "\(screen)")
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("without a terminal, a form that does not validate fails at once and is kept where it says")
    func noTerminalKeepsForm() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "draft")
        let editor = daemon.directory + "/editor.sh"
        try "#!/bin/sh\nsed -i 's/^priority: .*/priority: urgent/' \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let edited = try await daemon.todoctl("edit", "1", environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(edited.status == 1)
        #expect(edited.stderr.contains("\"urgent\" is not low, normal or high"))
        #expect(!edited.stderr.contains("Edit the form again"))
        let path = try #require(edited.stderr.split(separator: " ").first { $0.hasPrefix("/") && $0.contains("todoctl-edit") })
        let kept = try String(contentsOfFile: String(path.trimmingCharacters(in: CharacterSet(charactersIn: ":"))), encoding: .utf8)
        #expect(kept.contains("priority: urgent"))
        try await daemon.stop()
    }

    /// `todoctl edit 1` on the fixed day, with an editor that sets the form's `field` line to `value`.
    private func editedWithSed(_ daemon: DaemonProcess, _ field: String, _ value: String) async throws -> CommandResult {
        let editor = daemon.directory + "/editor.sh"
        try "#!/bin/sh\nsed -i 's/^\(field):.*/\(field): \(value)/' \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        return try await daemon.todoctl("edit", "1", environment: fixedClock.merging(["EDITOR": editor, "VISUAL": ""]) { $1 })
    }

    @Test("the form's due and wait lines say why a day does not exist, as -d does (they said only that it is not a date)", arguments: [
        ("due", "2026-02-30", "due: 2026-02-30: February 2026 has 28 days"), ("wait", "31 apr", "wait: 31 apr: April has 30 days"),
    ])
    func impossibleDay(field: String, typed: String, message: String) async throws {
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        _ = try await daemon.todoctl("add", "draft")
        let edited = try await editedWithSed(daemon, field, typed)
        #expect(edited.status == 1, "\(edited.stdout)")
        #expect(edited.stderr.contains(message), "\(edited.stderr)")
        try await daemon.stop()
    }

    @Test("the form's due line takes the words --due takes")
    func dueWords() async throws {
        // One fixed "now" for both "tomorrow"s: with the wall clock, midnight between them would make two days.
        let daemon = try await DaemonProcess.start(environment: fixedClock)
        _ = try await daemon.todoctl("add", "draft")
        let edited = try await editedWithSed(daemon, "due", "tomorrow")
        #expect(edited.status == 0, "\(edited.stderr)")
        let expected = try await daemon.todoctl("add", "probe", "--due", "tomorrow", "--json", environment: fixedClock).stdout
        let json = try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)
        let tomorrow = try jsonObject(expected)["due"] as? String
        #expect(tomorrow != nil && json["due"] as? String == tomorrow)
        try await daemon.stop()
    }
}
