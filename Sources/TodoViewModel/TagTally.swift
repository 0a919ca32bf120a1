import TodoModel

/// A tag and how many open todos carry it, for `todoctl tags`. Projects are not tags
/// (`todoctl projects` counts them).
public struct TagTally: Sendable, Equatable, Codable {
    public let tag: String
    public let open: Int

    public init(tag: String, open: Int) {
        self.tag = tag
        self.open = open
    }

    /// The tags of the open todos in `todos`, most used first, then by name in any case, as
    /// `sort -f` orders them (`alpha`, `Beta`, `zeta`; "Zeta" came before "alpha"), and
    /// names that differ only in case upper case first, so that the order never varies.
    public static func tallies(of todos: [Todo]) -> [TagTally] {
        var counts: [String: Int] = [:]
        for todo in todos where !todo.isCompleted && !todo.isDeleted {
            for tag in Set(todo.tags) {
                counts[tag, default: 0] += 1
            }
        }
        return counts.sorted { a, b in
            if a.value != b.value { return a.value > b.value }
            let (foldedA, foldedB) = (a.key.uppercased(), b.key.uppercased())
            return foldedA != foldedB ? foldedA < foldedB : a.key < b.key
        }
            .map { TagTally(tag: $0.key, open: $0.value) }
    }
}
