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

        static func name(for value: Status) -> NameSpecification {
            value == .all ? [.customShort("a"), .long] : .long
        }
    }

    @Flag var status: Status = .open
    @OptionGroup(title: "Filter") var filter: FilterOptions
    @Flag(help: "Only todos waiting for a later day (--wait), which the other lists leave out.") var waiting = false
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func validate() throws { try filter.refuseRefs() }

    func run() async throws {
        var filter = filter.filter(status: TodoFilter.Status(rawValue: status.rawValue) ?? .open)
        filter.waiting = waiting
        try await Self.list(filter, status: status, socketPath: connection.socketPath, json: output.json)
    }

    static func list(_ filter: TodoFilter, status: Status, socketPath: String, json: Bool) async throws {
        let list = try await Session.run(socketPath: socketPath) { try $0.list(filter) }
        if json { return try Terminal.printJSON(list.todos) }
        if list.todos.isEmpty {
            return Terminal.print("no \(status == .all ? "" : status.rawValue + " ")\(filter.waiting ? "waiting " : "")todos")
        }
        // One write for the whole table: a flush per line cost 10,000 system calls for 10,000 todos.
        Terminal.print(TodoTable.render(TodoOutline(list), styler: Terminal.styler).joined(separator: "\n"))
    }
}
