import Foundation

/// What a todo waits for (`depends:3,5`, Taskwarrior's `depends`): other live todos, named
/// by number and kept by id, never itself, and never one that waits for it, however far
/// round: a cycle would block every todo on it for good.
public enum DependencyRule {
    /// The ids `todo` (nil: a new one, which nothing waits for yet) waits for once
    /// `current` loses the todos numbered `removed` and gains those numbered `added`;
    /// `clear` drops `current` first. `byNumber` and `byID` look todos up.
    public static func resolve(
        todo: Todo?, current: [UUID], clear: Bool, added: [Int], removed: [Int],
        byNumber: (Int) throws -> Todo?, byID: (UUID) throws -> Todo?
    ) throws -> Result<[UUID], TodoModelError> {
        var ids = clear ? [] : current
        for number in removed {
            guard let gone = try byNumber(number) else { continue }  // a purged one is gone already
            ids.removeAll { $0 == gone.id }
        }
        for number in added {
            if let todo, number == todo.number {
                return .failure(.invalid(field: "depends", reason: "#\(number) cannot wait for itself: name the other todos it waits for (depends:3,5)"))
            }
            guard let other = try byNumber(number) else {
                return .failure(.invalid(field: "depends", reason: "there is no todo #\(number): \(RuleAdvice.nameAnExistingTodo)"))
            }
            if other.isDeleted {
                return .failure(.invalid(field: "depends", reason: "#\(number) is deleted: \(RuleAdvice.restoreOrNameAnother)"))
            }
            if let todo, let path = try path(from: other, to: todo.id, byID: byID) {
                let round = ([todo.number] + path.map(\.number) + [todo.number]).map { "#\($0)" }.joined(separator: " → ")
                return .failure(.invalid(
                    field: "depends",
                    reason: "#\(number) already waits for #\(todo.number) (\(round)), and a todo cannot wait for one that waits for it: take one dependency away first (edit \(path.last?.number ?? number) depends:-\(todo.number))"))
            }
            if !ids.contains(other.id) { ids.append(other.id) }
        }
        return .success(Todo.dependencySet(ids))
    }

    /// The todos from `start` along what each waits for to the one whose id is `target`
    /// (start first, the one waiting for `target` last), or nil when none leads there.
    public static func path(from start: Todo, to target: UUID, byID: (UUID) throws -> Todo?) throws -> [Todo]? {
        var seen: Set<UUID> = [start.id]
        var stack: [[Todo]] = [[start]]
        while let path = stack.popLast() {
            guard let last = path.last else { continue }
            if last.depends.contains(target) { return path }
            for id in last.depends where !seen.contains(id) {
                seen.insert(id)
                if let next = try byID(id) { stack.append(path + [next]) }
            }
        }
        return nil
    }
}
