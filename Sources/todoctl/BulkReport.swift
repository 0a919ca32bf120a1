import Foundation
import ArgumentParser
import TodoClient
import TodoTerminal
import TodoViewModel

/// What a command that changes several todos says about each: changed, unchanged, or
/// refused with the daemon's reason; after a filter's run, the counts.
struct BulkReport {
    let json: Bool
    /// Whether to end with the counts (a filter chose the todos, so the person has not seen them).
    let summarised: Bool
    /// The command's word for the edit it makes (`started`), said instead of "edited".
    let verb: String?
    private(set) var changed: [TodoViewModel] = []
    /// What each of `changed` went through, for `--json`.
    private var kinds: [TodoChange.Kind] = []
    private(set) var counts = (changed: 0, unchanged: 0, failed: 0)
    /// Whether the note that changes wait for the shared store was said (once a command).
    private var toldUnshared = false

    init(json: Bool, summarised: Bool, verb: String? = nil) {
        self.json = json
        self.summarised = summarised
        self.verb = verb
    }

    /// Reports one todo's result; a failure of the connection itself is thrown, since
    /// the rest cannot be sent either.
    mutating func record(_ result: Result<TodoChange, TodoClientError>) throws(TodoClientError) {
        switch result {
        case .success(let change) where change.kind == .unchanged:
            counts.unchanged += 1
            changed.append(change.todo)
            kinds.append(change.kind)
            if !json { Terminal.print("\(change.todo.numberText) \(TerminalText.escaped(change.todo.title)): nothing to change") }
        case .success(let change):
            counts.changed += 1
            changed.append(change.todo)
            kinds.append(change.kind)
            if !json { Terminal.print(change.kind == .updated ? verb.map(change.line(verb:)) ?? change.line : change.line) }
            if let reason = change.unshared, !toldUnshared {
                toldUnshared = true
                Terminal.error(Terminal.unsharedNote(reason))
            }
        case .failure(.refused(let error)):
            counts.failed += 1
            Terminal.error(error.inTodoctlWords)
        case .failure(let error):
            throw error
        }
    }

    /// Changes a todo's change made to others (its subtasks, its next occurrence): shown and
    /// listed, not counted, since no one asked for them by name.
    mutating func recordFurther(_ changes: [TodoChange]) {
        for change in changes {
            changed.append(change.todo)
            kinds.append(change.kind)
            if !json { Terminal.print(change.line) }
        }
    }

    /// The JSON array or the counts; exit 1 when any todo was refused.
    func finish() throws {
        if json {
            // Each todo once, as it ends up: a restored parent brings its subtasks along, named after it or not.
            var latest: [UUID: ChangedTodo] = [:], order: [UUID] = []
            for (todo, kind) in zip(changed, kinds) {
                if latest.updateValue(ChangedTodo(kind: kind, todo: todo), forKey: todo.todo.id) == nil { order.append(todo.todo.id) }
            }
            try Terminal.printJSON(order.compactMap { latest[$0] })
        }
        if summarised && !json && changed.isEmpty && counts.failed == 0 {
            Terminal.print("no todos match: nothing changed")
        } else if summarised && !json {
            Terminal.print("\(counts.changed) changed, \(counts.unchanged) unchanged, \(counts.failed) failed")
        }
        if counts.failed > 0 { throw ExitStatus.refused }
    }
}
