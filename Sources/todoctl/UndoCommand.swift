import ArgumentParser
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Undo the last change (any client's), a given one, or everything since a time.",
        discussion: """
            An undo puts back, field by field, what the change set: undoing an edit of the title \
            leaves a later edit of the notes alone. Undoing an add deletes (it can be restored), \
            undoing a delete restores, undoing a done reopens. A field changed again since is a \
            conflict naming that change (exit 1); --force puts the old value back anyway. An \
            undo is a change itself: `todoctl undo` again redoes. See the changes with `todoctl log`.
            """)

    @Argument(help: "The change to undo (its seq, from `todoctl log`), with the rest of its step; default: the last.")
    var seq: UInt64?
    @Option(help: ArgumentHelp("Undo every change made since then, newest first, as one step.", valueName: "when"))
    var since: WhenArgument?
    @Flag(help: "Put old values back even where a later change set the field again.") var force = false
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print the changes the undo made as JSON, one per line.") var json = false

    func validate() throws {
        if seq != nil && since != nil { throw ValidationError("give a change's seq or --since, not both") }
    }

    func run() async throws {
        let list = try Session.run(connection) { client in
            // An undo that changes nothing is answered like any write that changes nothing.
            try client.ask(.requestUndo(TodoUndo(seq: seq, since: since?.date, force: force))) {
                if case .responseUndo(let list) = $0 { list } else if case .responseTodoViewModel = $0 { ChangeList(changes: [], seq: 0) } else { nil }
            }
        }
        if list.changes.isEmpty && !json { Terminal.print("nothing to change: the todos are already as the undo would leave them") }
        for change in list.changes { Terminal.print(json ? try WireCodec.json(change) : "\(change.sequence)  \(change.todo.numberText)  \(change.what)") }
    }
}
