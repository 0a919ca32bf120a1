import ArgumentParser
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Show one todo's life, oldest change first: what changed, when, and by whom.",
        discussion: """
            A change of a due, wait or scheduled day says its times too (due 2026-11-29 15:00 → \
            2026-11-29 16:00; a time taken away: → 2026-11-29), as undo and redo do.

            With a shared store (todod --store), the todo's conflicts from sharing changes made on \
            this machine while the store was away follow its changes: the value not taken, the \
            one kept, why, and whether it was taken or left (todoctl conflicts). --json prints \
            the changes alone.
            """)

    @Argument(help: "The todo: its number, id, or id prefix (deleted todos too).", transform: TodoRef.checked) var ref: TodoRef
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print one change per line as JSON (the broadcast's fields, plus at, client, program and before).")
    var json = false

    func run() async throws {
        try Session.run(connection) { client in
            var id: String?
            try client.forEachChange(of: ref) { change in
                id = change.todo.todo.id.uuidString.lowercased()
                Terminal.print(json ? try WireCodec.json(change) : change.historyLine)
            }
            // Then its conflicts of sharing changes made offline (todod --store), taken, left or open: a
            // value typed here that the store did not take belongs to the todo's life too. Not in --json,
            // whose lines are changes.
            guard !json, let id else { return }
            let conflicts = try client.ask(.requestConflicts(ConflictsRequest(all: true))) {
                if case .responseConflicts(let list) = $0 { list } else { nil }
            }
            for conflict in conflicts.conflicts where conflict.id == id { Terminal.print(conflict.historyLine) }
        }
    }
}

extension TodoConnection {
    /// Each change of the todo `ref` names, oldest first, page after page.
    func forEachChange(of ref: TodoRef, _ body: (JournaledChange) throws -> Void) throws {
        // An answer that stopped at its size bound (`more`) goes on after its last change.
        var after: UInt64?
        while true {
            let list = try ask(.requestHistory(HistoryRequest(ref: ref, after: after))) {
                if case .responseHistory(let list) = $0 { list } else { nil }
            }
            for change in list.changes { try body(change) }
            guard list.more == true, let last = list.changes.last else { return }
            after = last.sequence
        }
    }
}
