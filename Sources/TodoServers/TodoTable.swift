import Foundation
import TodoEvents
import TodoModel

/// The ModelServer's in-memory copy of the table: every todo by id and by number, the
/// subtasks of each parent, the counts, and the default order while no commit changes it.
/// Reads are answered from it at once; it changes only when a commit is taken in
/// (`incorporate`), so a read never sees an uncommitted write and never waits for the disk.
struct TodoTable {
    private(set) var counts = TodoCounts()
    private var todos: [UUID: Todo] = [:]
    private var idsByNumber: [Int: UUID] = [:]
    private var subtasks = SubtaskIndex()
    /// Every todo in the default order, made by the first list read after a commit and kept
    /// until the next one: a list is then a filter, not a sort.
    private var ordered: [Todo]?

    /// The table as the store loaded it, `lastChange` its last committed change.
    init(_ loaded: [Todo], lastChange: UInt64) {
        todos.reserveCapacity(loaded.count)
        counts.asOf = lastChange
        for todo in loaded {
            todos[todo.id] = todo
            idsByNumber[todo.number] = todo.id
            subtasks.update(before: nil, after: todo)
            counts.add(todo, 1)
        }
    }

    /// Takes committed changes into the table; true when any changed it.
    mutating func incorporate(_ changes: [JournalEntry]) -> Bool {
        for change in changes {
            let todo = change.after
            let before = todos[todo.id]
            if let before { counts.add(before, -1) }
            subtasks.update(before: before, after: todo)
            counts.add(todo, 1)
            todos[todo.id] = todo
            idsByNumber[todo.number] = todo.id
            counts.asOf = max(counts.asOf, change.seq)
        }
        if !changes.isEmpty { ordered = nil }
        return !changes.isEmpty
    }

    /// The store's changes go up to `seq`, also where no change holds a number (a rebase
    /// that made nothing again leaves one): the next change a View sees shows it the gap.
    mutating func passed(_ seq: UInt64) {
        counts.asOf = max(counts.asOf, seq)
    }

    /// Forgets the todos of these numbers, purged for good by change `seq`.
    mutating func forget(numbers: [Int], purgedBy seq: UInt64) {
        for number in numbers {
            guard let id = idsByNumber.removeValue(forKey: number), let before = todos.removeValue(forKey: id) else { continue }
            counts.add(before, -1)
            subtasks.remove(before)
        }
        counts.asOf = max(counts.asOf, seq)
        ordered = nil
    }

    /// The answer to a read: a list in the default order with the parents and progress its
    /// subtasks need, or one todo with its subtasks and parent.
    mutating func answer(_ query: TodoQuery, today: LocalDate) -> TodoQueryResult {
        switch query {
        case .list(let filter):
            let all = ordered ?? Self.defaultOrder(todos)
            ordered = all
            let listed = Self.matching(all, filter, today: today)
            let (context, progress) = subtasks.planning(for: listed, in: todos, idsByNumber: idsByNumber)
            return TodoQueryResult(query: query, todos: listed, asOf: counts.asOf, context: context, progress: progress)
        case .one(let ref):
            return detail(ref)
        }
    }

    /// The open todos whose wait is over by `now` on `today` (`Todo.isWaitOver`).
    func waitingOver(on today: LocalDate, at now: TimeOfDay) -> [Todo] {
        todos.values.filter { $0.isWaitOver(on: today, at: now) }
    }

    /// The earliest timed wait still to end after `now` on `today` (`Todo.waitEnds`).
    func nextWaitEnd(after today: LocalDate, at now: TimeOfDay) -> (day: LocalDate, time: TimeOfDay)? {
        var next: (day: LocalDate, time: TimeOfDay)?
        for todo in todos.values {
            guard let end = todo.waitEnds, (end.day, end.time) > (today, now) else { continue }
            if let held = next, (held.day, held.time) <= (end.day, end.time) { continue }
            next = end
        }
        return next
    }

    /// The open todos whose until day is before `today`: expired, as Taskwarrior deletes a
    /// pending task past its until.
    func expired(on today: LocalDate) -> [Todo] {
        todos.values.filter { $0.isExpired(on: today) }
    }

    /// The todos in the default order, sorted by position so that no Todo is copied while
    /// sorting (a Todo is a dozen fields, several of them reference-counted).
    static func defaultOrder(_ todos: [UUID: Todo]) -> [Todo] {
        let values = Array(todos.values)
        var positions = Array(values.indices)
        positions.sort { Todo.precedesInDefaultOrder(values[$0], values[$1]) }
        return positions.map { values[$0] }
    }

    /// The todos that match, each tested once. When every todo matches, the list is the
    /// ordered array itself, not a copy of it.
    static func matching(_ all: [Todo], _ filter: TodoFilter, today: LocalDate) -> [Todo] {
        // Only a filter on them reads every todo's dependencies (`+BLOCKED`, `+READY`, `depends:12`).
        let dependencies = filter.readsOtherTodos ? Dependencies(all) : nil
        let matches = { (todo: Todo) in filter.matches(todo, today: today) && dependencies?.matches(todo, filter) != false }
        guard let firstMiss = all.firstIndex(where: { !matches($0) }) else { return all }
        return Array(all[..<firstMiss]) + all[(firstMiss + 1)...].filter(matches)
    }

    /// One todo, with its subtasks (and its parent) as context.
    private func detail(_ ref: TodoRef) -> TodoQueryResult {
        var found: [Todo] = []
        switch ref {
        case .id(let id): found = todos[id].map { [$0] } ?? []
        case .number(let number): found = idsByNumber[number].flatMap { todos[$0] }.map { [$0] } ?? []
        default:
            for todo in todos.values where ref.matches(todo) {
                found.append(todo)
                if found.count == 2 { break }
            }
        }
        guard found.count == 1, let todo = found.first else {
            return TodoQueryResult(query: .one(ref), todos: found, asOf: counts.asOf)
        }
        let subtasks = subtasks.subtasks(of: todo.number, in: todos).filter { !$0.isDeleted || todo.isDeleted }
        let parent = todo.parent.flatMap { idsByNumber[$0] }.flatMap { todos[$0] }
        let progress = subtasks.isEmpty ? [] : [SubtaskProgress(parent: todo.number, subtasks: subtasks)]
        return TodoQueryResult(
            query: .one(ref), todos: found, asOf: counts.asOf,
            context: (parent.map { [$0] } ?? []) + subtasks + dependencies(of: todo, besides: subtasks + (parent.map { [$0] } ?? [])),
            progress: progress)
    }

    /// The todos `todo` waits for and the live ones waiting for it (`show`'s "depends on"
    /// and "blocks"), but those in `shown` already. A scan of every todo only for a todo
    /// something could wait for: one nothing waits for is most todos, and costs the scan alone.
    private func dependencies(of todo: Todo, besides shown: [Todo]) -> [Todo] {
        let shownIDs = Set(shown.map(\.id))
        let waitedFor = todo.depends.compactMap { todos[$0] }
        let waiting = todos.values.filter { $0.depends.contains(todo.id) && !$0.isDeleted }.sorted { $0.number < $1.number }
        return (waitedFor + waiting).filter { !shownIDs.contains($0.id) }
    }
}
