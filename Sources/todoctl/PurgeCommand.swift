import ArgumentParser
import Foundation
import TodoEvents
import TodoModel
import TodoTerminal
import TodoViewModel

struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge", abstract: "Remove deleted todos for good, with their history.",
        discussion: """
            Lists the deleted todos it would remove and asks first; --yes skips the question, \
            and is required when stdin is not a terminal. A purged todo cannot be restored or \
            undone: its row and its journal entries (`todoctl history`) are removed together, \
            so `todod --check` still finds the journal and the table agreeing. Numbers are \
            never reused.
            """)

    @Option(parsing: .unconditional, help: ArgumentHelp("Only todos deleted longer ago than this: \(WhenArgument.accepted(.spelledOut)); `6m` is refused, asking whether 6mo or 6min is meant.", valueName: "when"),
        transform: WhenArgument.checkedSpelledOut)
    var olderThan: WhenArgument?
    @Flag(name: .shortAndLong, help: "Do not ask.") var yes = false
    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let interactive = isatty(STDIN_FILENO) == 1
        if !yes && !interactive {
            // Unconfirmed, as a bulk change without a terminal (`Selection.confirm`): exit 1, not bad usage.
            Terminal.error("purge removes deleted todos for good and asks first, and cannot ask without a terminal: nothing was purged. Pass --yes to purge without asking")
            throw ExitStatus.refused
        }
        let cutoff = olderThan?.date
        let result = try Session.run(connection) { client -> PurgeResult? in
            let deleted = try client.ask(.requestTodoViewModels(TodoFilter(status: .deleted))) {
                if case .responseTodoViewModels(let list) = $0 { list.todos } else { nil }
            }.filter { row in cutoff.map { (row.todo.deletedAt ?? .distantFuture) <= $0 } ?? true }
            guard !deleted.isEmpty else { return nil }
            if !yes {
                Terminal.print("These \(deleted.count) deleted todos will be removed for good, with their history:")
                for row in deleted.prefix(20) { Terminal.print("  \(row.numberText) \(TerminalText.escaped(row.title))") }
                if deleted.count > 20 { Terminal.print("  … and \(deleted.count - 20) more") }
                FileHandle.standardOutput.write(Data("Purge them? [y/N] ".utf8))
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else { return PurgeResult(numbers: [], seq: 0) }
            }
            return try client.ask(.requestPurge(PurgeRequest(deletedBefore: cutoff))) { if case .responsePurge(let result) = $0 { result } else { nil } }
        }
        guard let result else { return Terminal.print("no deleted todos to purge") }
        if result.numbers.isEmpty { return Terminal.print("nothing purged") }
        Terminal.print("purged for good: " + result.numbers.map { "#\($0)" }.joined(separator: " "))
    }
}
