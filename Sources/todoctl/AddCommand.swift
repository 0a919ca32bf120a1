import ArgumentParser
import TodoModel
import TodoViewModel

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a todo.",
        discussion: "The words of TITLE are joined with spaces: `todoctl add Buy milk --tag home --due fri`.")

    @Argument(help: "The title.") var title: [String]
    @Option(help: "Free text notes.") var notes: String?
    @Option(help: "low, normal or high.") var priority: Priority?
    @Option(help: ArgumentHelp("The due date: \(DueDateParser.accepted).", valueName: "date")) var due: DueDateArgument?
    @Option(name: .customLong("tag"), help: "A tag (one word); repeat for more.") var tags: [String] = []
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let new = NewTodo(
            title: title.joined(separator: " "), notes: notes ?? "", priority: priority ?? .normal,
            due: due?.date, tags: tags)
        let change = try await Session.run(connection) { try $0.change(.requestNewTodo(new)) }
        if output.json { try Terminal.printJSON(change.todo) } else { Terminal.print(change.line) }
    }
}
