import ArgumentParser
import TodoTerminal
import TodoViewModel

struct ProjectsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projects", abstract: "Each project, sub-projects indented under it, with its open and done todos.",
        discussion: """
            A project is a todo's project (project:home.garden or --project home.garden \
            puts it in garden, under home). The counts of a project include those of its sub-projects, as \
            Taskwarrior's `task projects` shows them; Done% is done of open and done, rounded \
            down. --json prints [{"project": "home.garden", "open": 2, "done": 1, \
            "percentDone": 33}, …], parents before their sub-projects.
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let tallies = ProjectTally.tallies(of: try AllTodos.fetch(connection))
        if output.json { return try Terminal.printJSON(tallies) }
        if tallies.isEmpty { return Terminal.print("no projects: give a todo one with project:NAME") }
        Terminal.print(ReportView.projects(tallies, width: Terminal.knownWidth ?? .max, styler: Terminal.styler).joined(separator: "\n"))
    }
}
