import TodoModel

/// A tag and how many open todos carry it, for `todoctl tags`. `project:` tags are left
/// out: they stand for projects (`todoctl projects`).
public struct TagTally: Sendable, Equatable, Codable {
    public let tag: String
    public let open: Int

    public init(tag: String, open: Int) {
        self.tag = tag
        self.open = open
    }

    /// The tags of the open todos in `todos`, most used first, then by name.
    public static func tallies(of todos: [Todo]) -> [TagTally] {
        var counts: [String: Int] = [:]
        for todo in todos where !todo.isCompleted && !todo.isDeleted {
            for tag in Set(todo.tags) where !tag.hasPrefix(TodoFilter.projectTagPrefix) {
                counts[tag, default: 0] += 1
            }
        }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { TagTally(tag: $0.key, open: $0.value) }
    }
}
