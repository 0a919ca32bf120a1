import Foundation
import TodoModel

/// The order to import in: a subtask is linked to its parent only when todod has the parent
/// (imported earlier, or earlier in the same batch), and files list children before their
/// parents as often as not (a CalDAV export's order is arbitrary).
public enum ImportOrder {
    /// `todos` with every parent before the todos that name it; otherwise as given.
    public static func parentsFirst(_ todos: [ImportedTodo]) -> [ImportedTodo] {
        parentsFirst(todos.map { [$0] }).flatMap(\.self)
    }

    /// Groups of todos (one file's each) ordered so that a group holding a parent comes
    /// before the groups naming it, and each group's todos so too; otherwise as given. A cycle
    /// keeps the given order (the store refuses the link that would close it).
    public static func parentsFirst(_ groups: [[ImportedTodo]]) -> [[ImportedTodo]] {
        var owner: [UUID: Int] = [:]
        for (index, group) in groups.enumerated() {
            for todo in group where owner[todo.id] == nil { owner[todo.id] = index }
        }
        var placed = Set<Int>(), result: [[ImportedTodo]] = []
        // Depth first without recursion: a hostile file can chain 100,000 parents.
        for start in groups.indices where !placed.contains(start) {
            var stack = [start], entered = Set<Int>()
            while let index = stack.last {
                if placed.contains(index) { stack.removeLast(); continue }
                let parents = groups[index].compactMap { $0.parentID.flatMap { owner[$0] } }
                    .filter { $0 != index && !placed.contains($0) && !entered.contains($0) }
                if entered.insert(index).inserted, !parents.isEmpty {
                    stack += parents.reversed()
                    continue
                }
                stack.removeLast()
                placed.insert(index)
                result.append(groups[index].count == 1 ? groups[index] : parentsFirst(groups[index]))
            }
        }
        return result
    }
}
