import ArgumentParser
import TodoTerminal
import TodoViewModel

struct SummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary", abstract: "Per project, its open todos and a bar of how much is done.",
        discussion: """
            The projects as `todoctl projects` counts them (sub-projects included in their \
            parent), each with a bar of its percent done across the terminal's width \
            ($COLUMNS, else the terminal's, else 80). --json prints what `projects --json` does.
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let tallies = ProjectTally.tallies(of: try AllTodos.fetch(connection))
        if output.json { return try Terminal.printJSON(tallies) }
        if tallies.isEmpty { return Terminal.print("no projects: give a todo one with project:NAME") }
        Terminal.print(ReportView.summary(tallies, width: Terminal.width, styler: Terminal.styler).joined(separator: "\n"))
    }
}
