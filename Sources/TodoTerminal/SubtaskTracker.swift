import Foundation
import TodoModel
import TodoViewModel

/// Keeps a watched list's subtask facts live between whole answers: each parent's
/// progress (`2/5`) and the parents shown only as context. A list answer sets them; each
/// change then moves one subtask's count from where it was to where it is, so that a
/// child completed by any client updates its parent's progress at once.
public struct SubtaskTracker: Sendable, Equatable {
    /// What a subtask counts for: under which parent, done or not, alive or deleted.
    struct Standing: Sendable, Equatable {
        var parent: Int?
        var done: Bool
        var live: Bool

        init(_ todo: Todo) {
            (parent, done, live) = (todo.parent, todo.isCompleted, !todo.isDeleted)
        }

        /// How it stood before a change of `kind` (for a subtask first seen in that change):
        /// a completion was open before, a reopening done, a restoring deleted.
        init?(before kind: TodoChange.Kind, now todo: Todo) {
            self.init(todo)
            switch kind {
            case .created, .unchanged: return nil
            case .completed: done = false
            case .reopened: done = true
            case .deleted: live = true
            case .restored: live = false
            case .updated: break
            }
        }
    }

    private(set) var progress: [Int: SubtaskProgress] = [:]
    /// Parents as last seen (listed or context), by number.
    private(set) var parents: [Int: TodoViewModel] = [:]
    private var standings: [UUID: Standing] = [:]

    public init() {}

    /// A whole list answer: its progress and context replace what was known.
    public mutating func reset(_ answer: TodoViewModelList) {
        progress = Dictionary(answer.progress.map { ($0.parent, $0) }) { _, last in last }
        parents = [:]
        for row in answer.context + answer.todos where progress[row.number] != nil { parents[row.number] = row }
        standings = [:]
        for row in answer.todos where row.todo.parent != nil { standings[row.id] = Standing(row.todo) }
    }

    /// One new change from any client.
    public mutating func incorporate(_ change: TodoChange) {
        let todo = change.todo.todo
        if parents[todo.number] != nil || progress[todo.number] != nil { parents[todo.number] = change.todo }
        let before = standings[todo.id] ?? Standing(before: change.kind, now: todo)
        let after = Standing(todo)
        guard before?.parent != nil || after.parent != nil, before != after else { return }
        if let before { count(before, by: -1) }
        count(after, by: 1)
        standings[todo.id] = after
    }

    private mutating func count(_ standing: Standing, by step: Int) {
        guard let parent = standing.parent, standing.live else { return }
        var counted = progress[parent] ?? SubtaskProgress(parent: parent, done: 0, total: 0)
        counted.total += step
        if standing.done { counted.done += step }
        progress[parent] = counted.total > 0 ? counted : nil
    }

    /// Whether a listed subtask's parent is neither listed nor known (a subtask that came
    /// in a change under a parent this list never saw): only a whole answer can show it.
    public func lacksParent(in list: TodoListViewModel) -> Bool {
        let listed = Set(list.rows.map(\.number))
        return list.rows.contains { row in row.todo.parent.map { !listed.contains($0) && parents[$0] == nil } ?? false }
    }

    /// `list` as a list answer with its live context and progress, for `TodoOutline`:
    /// a parent is context when a listed subtask is under it and it is not listed itself.
    public func answer(for list: TodoListViewModel) -> TodoViewModelList {
        let listed = Set(list.rows.map(\.number))
        let wanted = Set(list.rows.compactMap(\.todo.parent)).subtracting(listed)
        let context = wanted.compactMap { parents[$0] }.sorted { Todo.precedesInDefaultOrder($0.todo, $1.todo) }
        let shown = listed.union(context.map(\.number))
        return TodoViewModelList(
            filter: list.filter, todos: list.rows, asOf: list.asOf, context: context,
            progress: progress.values.filter { shown.contains($0.parent) }.sorted { $0.parent < $1.parent })
    }
}
