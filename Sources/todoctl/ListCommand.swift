import ArgumentParser
import TodoModel
import TodoTerminal
import TodoViewModel

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List todos: open ones unless told otherwise.",
        aliases: ["ls"])

    enum Status: String, EnumerableFlag {
        case open, all, completed, deleted

        static func help(for value: Status) -> ArgumentHelp? {
            switch value {
            case .open: "Open todos (the default)."
            case .all: "Open and completed todos."
            case .completed: "Completed todos."
            case .deleted: "Deleted todos (restore them with `todoctl restore`)."
            }
        }
    }

    @Flag var status: Status = .open
    @Option(help: "Only todos with this tag.") var tag: String?
    @Option(help: "Only todos of this priority.") var priority: Priority?
    @Option(help: "Only todos whose title or notes contain this text.") var search: String?
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let filter = TodoFilter(
            status: TodoFilter.Status(rawValue: status.rawValue) ?? .open, tag: tag, priority: priority, search: search)
        let list = try await Session.run(connection) { client in
            try client.ask(.requestTodoViewModels(filter)) {
                if case .responseTodoViewModels(let list) = $0 { list } else { nil }
            }
        }
        if output.json { return try Terminal.printJSON(list.todos) }
        if list.todos.isEmpty { return Terminal.print("no \(status == .all ? "" : status.rawValue + " ")todos") }
        // One write for the whole table: a flush per line cost 10,000 system calls for 10,000 todos.
        Terminal.print(TodoTable(rows: list.todos, styler: Terminal.styler).render().joined(separator: "\n"))
    }
}
