import ArgumentParser
import Foundation
import TodoClient
import TodoInterop
import TodoModel

/// `todoctl export --to FORMAT [--all] [-o FILE]`: every todo, in another program's format.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the todos as Taskwarrior, iCalendar, todo.txt or todod's JSON.",
        discussion: """
            Open and completed todos; with --all deleted ones too (todo.txt has no deleted \
            state and leaves them out). Fields an import kept are written back as they came. \
            A todo due at a time goes out at that local time: Taskwarrior's UTC instant, \
            a floating iCalendar DUE (DUE:20261224T150000), todo.txt's due:2026-12-24T15:00; \
            a whole day as ever (local midnight for Taskwarrior, DUE;VALUE=DATE; a todo due \
            at 00:00 goes to Taskwarrior one second after, 00:00:01, to stay apart). Examples:
              todoctl export --to taskwarrior --all | task import
              todoctl export --to ical -o todos.ics
            """)

    @Option(help: "The format to write: \(InteropFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var to: InteropFormat

    @Flag(help: "Deleted todos too.")
    var all = false

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file (replacing it whole) instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let todos = try Session.run(connection) { client in try Self.todos(client, includingDeleted: all) }
        let data = to.encode(todos)
        guard let output else { return FileHandle.standardOutput.write(data) }
        do {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            Terminal.error("cannot write \(output): \(error.localizedDescription)")
            throw ExitStatus.refused
        }
        Terminal.error("exported \(todos.count) todos to \(output)")
    }

    /// Every todo, by number: open and completed, those waiting for a later day too, and
    /// deleted ones when asked.
    static func todos(_ client: TodoConnection, includingDeleted: Bool) throws(TodoClientError) -> [Todo] {
        var todos: [Todo] = []
        for status in includingDeleted ? [TodoFilter.Status.all, .deleted] : [.all] {
            for waiting in [false, true] {
                todos += try client.ask(.requestTodoViewModels(TodoFilter(status: status, waiting: waiting))) {
                    if case .responseTodoViewModels(let list) = $0 { list.todos.map(\.todo) } else { nil }
                }
            }
        }
        return todos.sorted { $0.number < $1.number }
    }
}
