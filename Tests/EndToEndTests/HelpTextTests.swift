import Foundation
import Testing

/// The help texts are paragraphs the terminal wraps: ArgumentParser keeps every line break of
/// a `discussion`, so a paragraph broken in its source at 90 columns came out in an
/// 80-column terminal as a line and a one-word orphan ("… let systemd start it" / "on").
@Suite("help texts")
struct HelpTextTests {
    @Test("every command's help wraps its paragraphs to the terminal: no prose line is broken by its source")
    func paragraphsAreWrappedByTheTerminal() async throws {
        let wide = ["COLUMNS": "200"]
        let overview = try await run("todoctl", ["--help"], environment: wide)
        let commands = overview.stdout.components(separatedBy: "SUBCOMMANDS:").last?
            .split(separator: "\n").compactMap { $0.split(separator: " ").first.map { String($0).trimmingCharacters(in: [","]) } } ?? []
        #expect(commands.count > 20, "\(overview.stdout)")
        var helps = [("todod", try await run("todod", ["--help"], environment: wide).stdout), ("todoctl", overview.stdout)]
        for command in commands {
            helps.append(("todoctl \(command)", try await run("todoctl", [command, "--help"], environment: wide).stdout))
        }
        for (command, help) in helps {
            // The prose before the usage: a line of it shorter than the terminal, followed by more
            // prose, was broken by hand (a list's heading ends with a colon; its items are indented).
            let prose = help.components(separatedBy: "\nUSAGE:").first ?? help
            let lines = prose.split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst())
            where !line.isEmpty && !next.isEmpty && !line.hasPrefix(" ") && !next.hasPrefix(" ") && !line.hasSuffix(":") {
                #expect(line.count >= 150, "\(command) --help breaks a paragraph after \"\(line)\" (next: \"\(next)\")")
            }
        }
    }

    @Test("each thing issue 27 built is in the --help the man page is made from: the reports' options and forms, undo that steps back, redo, undo --since asking, the nearest command, why a date does not exist, H/M/L, watch's prompt keys")
    func issue27IsInTheHelp() async throws {
        let wide = ["COLUMNS": "500"]
        for (command, phrases) in [
            (["list"], ["--sort", "--limit", "--columns"]), (["tags"], ["tag"]), (["projects"], ["project"]), (["summary"], ["project"]),
            (["calendar"], ["feb 2027", "2027-02", "brackets ([23]", "under 21 (28) the grid itself", "27² [28]  29"]),
            (["burndown"], ["--weekly", "--json", "open/done", "1m is a month", "m or mo (months)"]),
            (["undo"], ["again takes back the change before", "lists what it would take back and asks above 3", "is named, with that client", "cut with … as log's are"]),
            (["redo"], ["Put back what the last undo took back"]), (["log"], ["cut with …", "m or min (minutes)"]),
            ([], ["refused with the nearest command"]),
            (["add"], ["February 2026 has 28 days", "did you mean tomorrow?", "H, M or L, medium, any case"]),
            (["watch"], ["Ctrl-A Home", "Ctrl-U Ctrl-K", "Ctrl-W", "An old value starts selected (reversed): typing replaces it", "-p H|M|L"]),
        ] {
            let help = try await run("todoctl", command + ["--help"], environment: wide).stdout.replacingOccurrences(of: "\n", with: " ")
            for phrase in phrases { #expect(help.contains(phrase), "todoctl \(command.joined(separator: " ")) --help lacks \"\(phrase)\"") }
        }
    }
}
