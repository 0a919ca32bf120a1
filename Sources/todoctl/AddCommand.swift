import ArgumentParser
import TodoModel
import TodoViewModel

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a todo.",
        discussion: "The words of TITLE are joined with spaces: `todoctl add Buy milk -t home -d fri`.")

    @Argument(help: "The title.") var title: [String]
    @Option(name: .shortAndLong, help: "Free text notes.") var notes: String?
    @Option(name: .shortAndLong, help: "low, normal or high.") var priority: Priority?
    @Option(name: .shortAndLong, help: ArgumentHelp("The due date: \(DueDateParser.accepted).", valueName: "date")) var due: DueDateArgument?
    @Option(name: [.customShort("t"), .customLong("tag")], help: "A tag (one word); repeat for more.") var tags: [String] = []
    @OptionGroup(title: "Planning") var planning: PlanningOptions
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let new = NewTodo(
            title: title.joined(separator: " "), notes: notes ?? "", priority: priority ?? .normal,
            due: due?.date, tags: tags, recurrence: planning.recurrence, parent: planning.parent?.number,
            wait: planning.wait?.date)
        try await Self.add(new, socketPath: connection.socketPath, json: output.json)
    }

    static func add(_ new: NewTodo, socketPath: String, json: Bool) async throws {
        let change = try await Session.run(socketPath: socketPath) { try $0.change(.requestNewTodo(new)) }
        if json { try Terminal.printJSON(change.todo) } else { Terminal.print(change.line) }
    }
}
