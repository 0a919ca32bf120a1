import ArgumentParser
import TodoEvents
import TodoTerminal
import TodoViewModel

/// `todoctl conflicts`: the fields changed both on this machine, while the shared store was
/// away, and on another (todod --store), where the store's value was kept; taking one gives
/// the todo this machine's value, leaving it keeps the store's.
struct ConflictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts", abstract: "List the changes not taken when this machine's were shared, and take or leave them.",
        discussion: """
            With a shared store (todod --store), changes made while it is unreachable are saved on \
            this machine and shared once it is back; a field changed here and on another machine \
            meanwhile keeps the other's value (the store's), and this machine's is kept as a conflict. \
            todoctl conflicts lists the open ones: its number N, the todo, the field, the value kept \
            and the value not taken, and when it was changed here (--all also those taken or left). \
            todoctl conflicts take N gives the todo this machine's value by an ordinary change: every \
            client sees it, it is shared like any change, and todoctl undo takes it back. todoctl \
            conflicts leave N keeps the store's value. Either ends the conflict. A take of a todo \
            deleted since is refused until it is restored; one purged since can only be left. \
            The conflicts are this machine's: another machine lists its own; todoctl status counts \
            the open ones.
            """,
        subcommands: [ConflictsListCommand.self, ConflictTakeCommand.self, ConflictLeaveCommand.self],
        defaultSubcommand: ConflictsListCommand.self)
}

struct ConflictsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the open conflicts, oldest first.")

    @Flag(help: "Also those taken or left, with which and when.") var all = false
    @Flag(name: .shortAndLong, help: "Print them as a JSON array (n, id, number, title, field, kept, notTaken, at, state, settledAt), kept and notTaken whole (a title or notes as they are).")
    var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let list = try Session.run(connection) { client in
            try client.ask(.requestConflicts(ConflictsRequest(all: all))) { if case .responseConflicts(let list) = $0 { list } else { nil } }
        }
        if json { return try Terminal.printJSON(list.conflicts) }
        guard !list.conflicts.isEmpty else { return Terminal.print(all ? "no conflicts" : "no open conflicts") }
        let width = list.conflicts.map { String($0.n).count }.max() ?? 1
        for conflict in list.conflicts { Terminal.print(conflict.line(width: width)) }
    }
}

struct ConflictTakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "take", abstract: "Give the todo this machine's value of conflict N (an ordinary change, undoable).")

    @Argument(help: ArgumentHelp("The conflict's number, as todoctl conflicts lists it.", valueName: "n")) var n: Int
    @OptionGroup var output: OutputOptions
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let change = try Session.run(connection) { client in try client.change(.requestSettleConflict(ConflictSettlement(n: n, take: true))) }
        if output.json { return try Terminal.answer(change, json: true) }
        Terminal.print("conflict \(n) taken: " + change.line)
        if let reason = change.unshared { Terminal.error(Terminal.unsharedNote(reason)) }
    }
}

struct ConflictLeaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave", abstract: "Keep the store's value of conflict N: the conflict ends, the todo is not changed.")

    @Argument(help: ArgumentHelp("The conflict's number, as todoctl conflicts lists it.", valueName: "n")) var n: Int
    @Flag(name: .shortAndLong, help: "Print the conflict as JSON, as conflicts --json does.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let conflict = try Session.run(connection) { client in
            try client.ask(.requestSettleConflict(ConflictSettlement(n: n, take: false))) {
                if case .responseSettleConflict(let conflict) = $0 { conflict } else { nil }
            }
        }
        if json { return try Terminal.printJSON(conflict) }
        Terminal.print("conflict \(n) left: #\(conflict.number) keeps the store's \(conflict.field.rawValue), \(TerminalText.escaped(conflict.keptWords))")
    }
}

extension ConflictViewModel {
    /// `2  #3 Buy milk  title: kept "Buy milk" (the store's), not taken "Buy oat milk" (this
    /// machine's, 2026-11-27 10:20): changed on another machine meanwhile`, with what became
    /// of it once taken or left; `n` right-aligned in `width` columns.
    func line(width: Int) -> String {
        let number = String(repeating: " ", count: max(0, width - String(n).count)) + String(n)
        let settled = state == .open ? "" : "  [\(state.rawValue)" + (settledAt.map { " " + ShowCommand.format($0) } ?? "") + "]"
        return TerminalText.escaped(
            "\(number)  #\(self.number) \(title)  \(field.rawValue): kept \(keptWords) (the store's), not taken \(notTakenWords) (this machine's, \(ShowCommand.format(at))): \(why)")
            + settled
    }
}

extension ConflictViewModel {
    /// `2026-11-27 10:20  conflict 2 title: not taken "Buy oat milk" (this machine's), kept "Buy milk"
    /// (the store's): changed on another machine meanwhile; open: todoctl conflicts take 2 or leave 2`,
    /// for history, dated when the change was made here.
    var historyLine: String {
        let state = switch self.state {
        case .open: "open: todoctl conflicts take \(n) or leave \(n)"
        case .taken, .left: self.state.rawValue + (settledAt.map { " " + ShowCommand.format($0) } ?? "")
        }
        return TerminalText.escaped(
            "\(ShowCommand.format(at))  conflict \(n) \(field.rawValue): not taken \(notTakenWords) (this machine's), kept \(keptWords) (the store's): \(why); \(state)")
    }
}
