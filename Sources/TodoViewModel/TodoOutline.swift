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

    /// - Parameter order: a `--sort` order: the parents (and todos of their own) in that
    ///   order, each parent's subtasks under it in the same order. Without one, the list's
    ///   order, which is the default order.
    public init(_ list: TodoViewModelList, order: TodoSort? = nil) {
        var list = list
        if let order {
            list.todos = order.sorted(list.todos)
        }
        let precedes = order.map { order in { order.precedes($0, $1) } } ?? Todo.precedesInDefaultOrder
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
            let at = tops.firstIndex { precedes(parent.todo, $0.row.todo) } ?? tops.count
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

    private init(entries: [Entry]) {
        self.entries = entries
    }

    /// The outline cut after its first `count` listed todos (`list --limit`), and how many
    /// listed todos were left out. A context parent counts for nothing: it stays only
    /// when one of its subtasks does.
    public func limited(to count: Int) -> (outline: TodoOutline, more: Int) {
        var kept: [Entry] = []
        var shown = 0
        for entry in entries {
            if !entry.isContext {
                guard shown < count else { break }
                shown += 1
            }
            kept.append(entry)
        }
        if kept.last?.isContext == true { kept.removeLast() }
        return (TodoOutline(entries: kept), entries.filter { !$0.isContext }.count - shown)
    }
}
