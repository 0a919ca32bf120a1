import ArgumentParser
import TodoEvents
import TodoViewModel

struct RedoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo", abstract: "Put back what the last undo took back.",
        discussion: """
            Redo takes back the undos in reverse order: after two undos, two redos put both \
            changes back. A new change made after an undo, by any client, ends the redo chain, \
            as in editors: redo then has nothing to do and says which change ended it, so it \
            never overwrites a field changed after the undo. `todoctl undo` after a redo undoes \
            the change again. See `todoctl undo --help`.
            """)

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print the changes the redo made as one JSON array, as the commands that change several todos do.") var json = false

    func run() async throws {
        let list = try Session.run(connection) { client in
            // A redo that changes nothing is answered like any write that changes nothing.
            try UndoCommand.noneOnRefusal(json: json) {
                try client.ask(.requestRedo) {
                    if case .responseRedo(let list) = $0 { list } else if case .responseTodoViewModel = $0 { ChangeList(changes: [], seq: 0) } else { nil }
                }
            }
        }
        try UndoCommand.print(list, json: json, nothing: "nothing to change: the todos are already as the redo would leave them")
    }
}
