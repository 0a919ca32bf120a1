import ArgumentParser
import TodoClient
import TodoEvents
import TodoModel
import TodoViewModel
import TodoWire

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Show one todo's life, oldest change first: what changed, when, and by whom.")

    @Argument(help: "The todo: its number, id, or id prefix (deleted todos too).", transform: TodoRef.checked) var ref: TodoRef
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print one change per line as JSON (the broadcast's fields, plus at, client, program and before).")
    var json = false

    func run() async throws {
        try Session.run(connection) { client in
            try client.forEachChange(of: ref) { change in Terminal.print(json ? try WireCodec.json(change) : change.historyLine) }
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
