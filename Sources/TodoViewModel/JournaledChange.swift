import Foundation
import TodoModel

/// One journaled change as clients read it (`responseChanges`, `responseHistory`,
/// `responseLog`, `responseUndo`, and `todoctl log --json`): a broadcast's fields
/// (`change`, `seq`, `todo`) plus who made it and when, and the todo before it where the
/// answer says (history, log, undo).
public struct JournaledChange: Sendable, Equatable, Codable {
    public var kind: TodoChange.Kind
    public var todo: TodoViewModel
    public var sequence: UInt64
    public var at: Date
    public var client: UInt64
    public var program: String
    /// The machine whose daemon made it (`todod --machine`, its host name by default), when
    /// that is another than the one answering, through a shared store; absent for this
    /// machine's changes and for those journaled before machines were named.
    public var machine: String?
    /// Made on this machine while the shared store was away, and not shared yet: its seq and
    /// its todo's number may still change when it is. Absent once shared, and without a store.
    public var pending: Bool?
    /// The seq of the first change of the same mutation: an undo takes back a whole step.
    public var step: UInt64
    public var before: TodoViewModel?
    /// Made by the migration that started the journal: the todo existed before it.
    public var imported: Bool?
    /// The change this one undid.
    public var undoes: UInt64?
    /// A redo's change (its `undoes` is the undo it took back); absent otherwise.
    public var redo: Bool?
    /// The steps an undo's or a redo's step took back (what `undo` steps past); absent for a change.
    public var undoneSteps: [UInt64]?

    public init(_ entry: JournalEntry, withBefore: Bool) {
        kind = TodoChange.Kind(entry.kind)
        todo = TodoViewModel(entry.after)
        sequence = entry.seq
        at = entry.at
        client = entry.author.client
        program = entry.author.program
        machine = entry.author.machine
        pending = entry.unshared == nil ? nil : true
        step = entry.step
        before = withBefore ? entry.before.map { TodoViewModel($0) } : nil
        imported = entry.imported ? true : nil
        undoes = entry.undoes
        redo = entry.isRedo ? true : nil
        undoneSteps = entry.undoneSteps.isEmpty ? nil : entry.undoneSteps
    }

    /// This change to replay into another database, writing `todo` (this one's, validated);
    /// its program's name kept as short as a client's.
    public func replayed(_ todo: Todo) -> ReplayedChange {
        ReplayedChange(
            todo: todo, seq: sequence, step: step, at: at, author: ChangeAuthor(client: client, program: TodoValidation.programName(program), machine: machine),
            imported: imported ?? false, undoes: undoes, undoneSteps: undoneSteps ?? [], isRedo: redo ?? false)
    }

    /// The broadcast this change was.
    public var change: TodoChange { TodoChange(kind: kind, todo: todo, sequence: sequence) }

    /// Who, as people read it: `todoctl (client 3)`, `todoctl (client 8 on laptop)`.
    public var author: String { ChangeAuthor(client: client, program: program, machine: machine).description }

    /// `author`, then `(not yet shared)` while the change waits on this machine for the store:
    /// the author column of history, log and undo's list.
    public var authorAndState: String { author + (pending == true ? " (not yet shared)" : "") }

    /// The fields this change set, with their old and new values in words, `title "a" → "b"`.
    public var fieldChanges: [String] {
        guard let before = before?.todo else { return [] }
        return TodoField.allCases.filter { !$0.isEqual(in: before, and: todo.todo) }.map { field in
            "\(field.rawValue) \(Self.words(field, before)) → \(Self.words(field, todo.todo))"
        }
    }

    /// `field`'s value in `todo` in words; dependencies by the numbers in `numbers`, where known.
    static func words(_ field: TodoField, _ todo: Todo, numbers: [UUID: Int] = [:]) -> String {
        switch field {
        case .title: quoted(todo.title)
        case .notes: quoted(todo.notes)
        case .priority: todo.priority.rawValue
        // With its time: 15:00 → 16:00 on one day is a change, as is a time added or taken away.
        case .due: todo.due?.described(at: todo.dueTime) ?? "none"
        case .tags: todo.tags.isEmpty ? "none" : todo.tags.map { "#\($0)" }.joined(separator: " ")
        case .completedAt: todo.completedAt == nil ? "open" : "done"
        case .deletedAt: todo.deletedAt == nil ? "live" : "deleted"
        case .recurrence: todo.recurrence?.description ?? "none"
        case .parent: todo.parent.map { "#\($0)" } ?? "none"
        case .wait: todo.wait?.described(at: todo.waitTime) ?? "none"
        case .foreign: todo.foreign.isEmpty ? "none" : todo.foreign.keys.sorted().joined(separator: ", ")
        case .annotations: todo.annotations.isEmpty ? "none" : todo.annotations.map { quoted($0.description) }.joined(separator: ", ")
        case .project: todo.project ?? "none"
        case .started: todo.started.map { LocalMinute($0).description } ?? "none"
        case .scheduled: todo.scheduled?.described(at: todo.scheduledTime) ?? "none"
        case .until: todo.until?.description ?? "none"
        // By number where the reader knew it (a conflict), else by the id's first 8 characters,
        // which name a todo wherever a reference is taken: the journal's todo holds ids, not
        // the numbers they had.
        case .depends:
            todo.depends.isEmpty
                ? "none" : todo.depends.map { id in numbers[id].map { "#\($0)" } ?? String(id.uuidString.lowercased().prefix(8)) }.joined(separator: ", ")
        }
    }

    /// `text` in quotes, cut at 60 characters: a line's words for a title, notes or an annotation.
    static func quoted(_ text: String) -> String {
        "\"" + (text.count > 60 ? String(text.prefix(57)) + "…" : text) + "\""
    }

    private enum CodingKeys: String, CodingKey {
        case kind = "change", todo, sequence = "seq", at, client, program, machine, pending, step, before, imported, undoes, redo, undoneSteps
    }
}
