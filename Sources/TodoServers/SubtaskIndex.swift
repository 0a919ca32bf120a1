import Foundation
import TodoModel

/// Which todos are subtasks of which parent (by number), kept beside the ModelServer's
/// in-memory table so that a list finds its parents' progress and context without a scan.
struct SubtaskIndex: Sendable {
    private var byParent: [Int: Set<UUID>] = [:]

    /// Records `after`, which was `before` (nil: new).
    mutating func update(before: Todo?, after: Todo) {
        guard before?.parent != after.parent else { return }
        if let old = before?.parent {
            byParent[old]?.remove(after.id)
            if byParent[old]?.isEmpty == true { byParent[old] = nil }
        }
        if let new = after.parent { byParent[new, default: []].insert(after.id) }
    }

    /// Forgets `todo` (purged for good).
    mutating func remove(_ todo: Todo) {
        guard let parent = todo.parent else { return }
        byParent[parent]?.remove(todo.id)
        if byParent[parent]?.isEmpty == true { byParent[parent] = nil }
    }

    /// The subtasks of the todo numbered `parent`, deleted ones included, in number order.
    func subtasks(of parent: Int, in todos: [UUID: Todo]) -> [Todo] {
        (byParent[parent] ?? []).compactMap { todos[$0] }.sorted { $0.number < $1.number }
    }

    /// The progress of each parent among `shown`, and the parents of shown subtasks that
    /// are not shown themselves (live ones, in the default order).
    func planning(for shown: [Todo], in todos: [UUID: Todo], idsByNumber: [Int: UUID]) -> (context: [Todo], progress: [SubtaskProgress]) {
        guard !byParent.isEmpty else { return ([], []) }
        var progress: [SubtaskProgress] = []
        var missingParents = Set<Int>()
        let shownNumbers = Set(shown.lazy.filter { $0.parent != nil || self.byParent[$0.number] != nil }.map(\.number))
        // A parent whose subtasks are all deleted has no progress to show ([0/0]), as watch shows none.
        func count(_ parent: Int) {
            let counted = SubtaskProgress(parent: parent, subtasks: subtasks(of: parent, in: todos))
            if counted.total > 0 { progress.append(counted) }
        }
        for todo in shown {
            if byParent[todo.number] != nil { count(todo.number) }
            if let parent = todo.parent, !shownNumbers.contains(parent) { missingParents.insert(parent) }
        }
        let context = missingParents.compactMap { idsByNumber[$0].flatMap { todos[$0] } }.filter { !$0.isDeleted }
        for parent in context { count(parent.number) }
        return (context.sorted(by: Todo.precedesInDefaultOrder), progress)
    }
}
