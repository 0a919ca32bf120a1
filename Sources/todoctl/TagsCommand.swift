import ArgumentParser
import TodoTerminal
import TodoViewModel

struct TagsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "Each tag with its count of open todos, most used first, then by name in any case.",
        discussion: """
            A todo's project is no tag: todoctl projects counts them. --json prints \
            [{"tag": "home", "open": 3}, …] in the same order.
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let tallies = TagTally.tallies(of: try AllTodos.fetch(connection))
        if output.json { return try Terminal.printJSON(tallies) }
        if tallies.isEmpty { return Terminal.print("no tags on open todos") }
        Terminal.print(ReportView.tags(tallies, width: Terminal.knownWidth ?? .max, styler: Terminal.styler).joined(separator: "\n"))
    }
}
