import ArgumentParser
import Foundation
import TodoClient
import TodoEvents
import TodoModel
import TodoTerminal
import TodoViewModel
import TodoWire

struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Undo the last change (any client's), a given one, or everything since a time.",
        discussion: """
            One command is one step, which one undo takes back whole: `done 1 2 3`, `edit 1 2 \
            -t x`, an import (about 800 todos at a time), a completion and the next occurrence it \
            made; `todoctl log` marks the changes that go with an earlier one (step N).

            An undo puts back, field by field, what the change set: undoing an edit of the title \
            leaves a later edit of the notes alone. Undoing an add deletes (it can be restored), \
            undoing a delete restores, undoing a done reopens. A field changed again since is a \
            conflict naming that change (exit 1); --force puts the old value back anyway.

            `todoctl undo` again takes back the change before, as in editors: it steps back \
            through every client's changes, newest first, past undos, redos and changes already \
            undone; `todoctl redo` puts back what the undos took back. This is read from the \
            journal, so it goes on after todod restarts. A plain undo takes the last change \
            still in effect when todod writes it: two at once take back two steps. A change \
            made by another client (watch, a script, todod itself, or todoctl at another \
            terminal: todoctl names itself `todoctl on pts/3` at a terminal) is named, with that \
            client, before it is undone, or after, when another undo came first; `undo --since` \
            lists what it would take back and asks above \(Selection.askAbove) steps (commands, \
            counted as it takes them back; --yes \
            does not ask; without a terminal it refuses). Naming an undo (`todoctl undo SEQ`) \
            redoes it. See the changes with `todoctl log`. In a terminal (or with COLUMNS) the \
            lines end at its edge, cut with … as log's are, and the sentences naming another \
            client's change are wrapped.

            Undoing a parent's creation deletes its subtasks too, as rm does, in one step. \
            After `undo SEQ --force`, undo goes on with the changes before, leaving what the \
            forced undo put back. \
            An undo that finds nothing left to change is recorded all the same, so the next \
            one steps on. Undo does not step back past a purge; name an older change to undo it.
            """)

    @Argument(help: "The change to undo (its seq, from `todoctl log`), with the rest of its step (its command); default: the last still in effect.")
    var seq: UInt64?
    // Unconditional: `--since -10m` starts with a dash.
    @Option(parsing: .unconditional, help: ArgumentHelp("Undo every change made since then (by its time, not its number) and still in effect, newest first, as one step: \(WhenArgument.accepted).", valueName: "when"),
        transform: WhenArgument.checked)
    var since: WhenArgument?
    @Flag(help: "Put old values back even where a later change set the field again.") var force = false
    @Flag(name: .shortAndLong, help: "Take back more than \(Selection.askAbove) steps (--since) without asking.") var yes = false
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print the changes the undo made as one JSON array, as the commands that change several todos do.") var json = false

    func validate() throws {
        if seq != nil && since != nil { throw ValidationError("give a change's seq or --since, not both") }
        // A usage mistake as `undo -5` is (64), not a refusal of the daemon's (it said "the journal holds no change 0", exit 1).
        if seq == 0 { throw ValidationError(Self.notAChange("0")) }
    }

    /// Why `word` (`0`, `-5`) names no change, and what to give.
    static func notAChange(_ word: String) -> String {
        "\(word) is not a change: changes are numbered from 1 (their seq, which `todoctl log` shows); give one, or --since for the changes made since then"
    }

    func run() async throws {
        let list = try Session.run(connection) { client in try Self.noneOnRefusal(json: json) {
            // First what it would take back (nothing is written), so that it can be named, and asked about.
            let undone = try client.ask(.requestUndo(TodoUndo(seq: seq, since: since?.date, force: force, preview: true))) {
                if case .responseUndo(let list) = $0 { list } else { nil }
            }
            // Each todoctl command is a client of its own: "another client" is a change made
            // under another name (watch, a script, todoctl at another terminal), not the user's
            // own last command at this terminal, nor one of the same name on another machine.
            var named = undone.changes.filter { $0.program != ClientProgram.todoctl || $0.machine != nil }
            // An undo takes back steps (a command's changes together): counted and asked about
            // as steps, each change listed, those that go with an earlier one marked as `log` marks them.
            let steps = Set(undone.changes.map(\.step))
            if since != nil {
                // Seqs right-aligned and numbers left-aligned, so that every column starts where the one above does.
                let widths = JournaledChange.widths(of: undone.changes)
                // Within the terminal, less the two spaces the confirmation indents them by.
                let lines = undone.changes.map { $0.undoLine(widths, width: Terminal.knownWidth.map { $0 - 2 }) }
                try Selection.confirm(lines, count: steps.count, found: "undo --since would take back \(Self.counted(steps.count, lines.count))",
                                      noun: "steps", action: "take back", yes: yes)
                if steps.count > Selection.askAbove && !yes { named = [] }
            }
            // A step of more changes than the bulk commands list without asking (another program's
            // import) is named once, not a line a change.
            for (step, changes) in Dictionary(grouping: named, by: \.step).sorted(by: { $0.key < $1.key }) {
                guard changes.count > Selection.askAbove, let first = changes.first else {
                    changes.forEach { name($0, "taking back") }
                    continue
                }
                say("taking back step \(step) by \(TerminalText.escaped(first.author)): its \(changes.count) changes (todoctl log lists them)")
            }
            // A plain undo is the daemon's to pick, at the moment it writes: two at once take
            // back two steps, as two in a row would (aiming at the step previewed, the second
            // would find it taken back by the first). `--since` takes exactly the changes
            // shown, up to the last one listed.
            let undo = TodoUndo(seq: seq, since: since?.date, force: force, through: since == nil ? nil : undone.seq)
            // An undo that changes nothing is answered like any write that changes nothing.
            let list = try client.ask(.requestUndo(undo)) {
                if case .responseUndo(let list) = $0 { list } else if case .responseTodoViewModel = $0 { ChangeList(changes: [], seq: 0) } else { nil }
            }
            // Another undo came first and this one took back an older step than the one
            // named: name that step's maker now, after the fact, by its first change (one
            // read a step; a daemon from before undone steps names only the changes).
            let taken = list.changes.first?.undoneSteps ?? Array(Set(list.changes.compactMap(\.undoes)))
            for seq in Set(taken).subtracting(steps).sorted(by: >) {
                guard let change = try JournalPages.page(client, LogRequest(after: seq - 1, limit: 1)).changes.first,
                      change.sequence == seq, change.program != ClientProgram.todoctl || change.machine != nil else { continue }
                if list.changes.count > 1 { say("took back step \(seq) by \(TerminalText.escaped(change.author))") } else { name(change, "took back") }
            }
            // What it took back, counted as the preview counted: its steps (the changes, when
            // they are those listed; another undo may have come first).
            if since != nil, !json, let taken = list.changes.first?.undoneSteps {
                Terminal.print("took back \(Self.counted(taken.count, Set(taken) == steps ? undone.changes.count : nil)):")
            }
            return list
        } }
        try UndoCommand.print(list, json: json, nothing: "nothing to change: the todos are already as the undo would leave them")
    }

    /// `4 steps`, or `4 steps (5 changes)` when a step holds several.
    private static func counted(_ steps: Int, _ changes: Int?) -> String {
        "\(steps) step\(steps == 1 ? "" : "s")" + (changes.map { $0 > steps ? " (\($0) changes)" : "" } ?? "")
    }

    /// `taking back change 3 by watch (client 7): #1 edited …`: another program's change, named.
    private func name(_ change: JournaledChange, _ verb: String) {
        say("\(verb) change \(change.sequence) by \(TerminalText.escaped(change.author)): \(change.todo.numberText) \(change.whatInWords)")
    }

    private func say(_ line: String) {
        // Wrapped at the terminal's edge between words, as the message it is (at 40 columns it ran past it).
        let text = Terminal.knownWidth.map { TerminalText.wrapped(line, toWidth: $0).joined(separator: "\n") } ?? line
        // With --json, stdout holds the JSON array only: the naming goes to stderr.
        if json { FileHandle.standardError.write(Data((text + "\n").utf8)) } else { Terminal.print(text) }
    }

    /// `body`, whose refusal by the daemon (nothing to undo, a conflict) prints `[]` first
    /// with `json`: stdout holds the changes made, none, as docs/HISTORY.md says; the
    /// reason still goes to stderr and the exit is still 1 (a script read an empty stdout).
    static func noneOnRefusal<T>(json: Bool, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TodoClientError {
            if json, case .refused = error { try Terminal.printJSON([JournaledChange]()) }
            throw error
        } catch let refusal as ExitCode where refusal == ExitStatus.refused {
            // `undo --since` refused to take back more than 3 steps without a yes (outside probe).
            if json { try Terminal.printJSON([JournaledChange]()) }
            throw refusal
        }
    }

    /// The changes an undo or a redo made, one a line; with `json`, one JSON array (`[]`
    /// for none), as `done --json` and the other commands that change several todos print.
    static func print(_ list: ChangeList, json: Bool, nothing: String) throws {
        // As every write says it (`Terminal.answer`): an undo made while the store was away said nothing (outside probe P7-9).
        defer { if let reason = list.unshared { Terminal.error(Terminal.unsharedNote(reason)) } }
        if json { return try Terminal.printJSON(list.changes) }
        if list.changes.isEmpty { Terminal.print(nothing) }
        // In columns, as the log's: past seq 99 (or #9) the lines wandered.
        let widths = JournaledChange.widths(of: list.changes)
        for change in list.changes {
            Terminal.print(change.changedLine(widths, width: Terminal.knownWidth))
        }
    }
}
