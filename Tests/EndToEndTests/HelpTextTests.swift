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
}
