import TodoModel

/// A list's rows arranged as people read subtasks: each parent, then its subtasks
/// indented under it. A subtask whose parent the filter left out comes under that parent,
/// shown as context (`list` dims it).
public struct TodoOutline: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let row: TodoViewModel
        /// 0 for a todo of its own or a parent, 1 for a subtask.
        public let depth: Int
        /// Shown only because a listed subtask belongs to it.
        public let isContext: Bool
        /// `2/5`, for a parent.
        public let progress: SubtaskProgress?
    }

    public let entries: [Entry]

    public init(_ list: TodoViewModelList) {
        let listed = Set(list.todos.map(\.number))
        let context = list.context.filter { !listed.contains($0.number) }
        let known = listed.union(context.map(\.number))
        var children: [Int: [TodoViewModel]] = [:]
        var tops: [(row: TodoViewModel, isContext: Bool)] = []
        for row in list.todos {
            if let parent = row.todo.parent, known.contains(parent) { children[parent, default: []].append(row) } else { tops.append((row, false)) }
        }
        // Context parents take their place in the default order among the others.
        for parent in context {
            let at = tops.firstIndex { Todo.precedesInDefaultOrder(parent.todo, $0.row.todo) } ?? tops.count
            tops.insert((parent, true), at: at)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(list.todos.count + context.count)
        for top in tops {
            entries.append(Entry(row: top.row, depth: 0, isContext: top.isContext, progress: list.progress(of: top.row.number)))
            for child in children[top.row.number] ?? [] {
                entries.append(Entry(row: child, depth: 1, isContext: false, progress: nil))
            }
        }
        self.entries = entries
    }
}
