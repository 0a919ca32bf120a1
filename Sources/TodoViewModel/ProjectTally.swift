import TodoModel

/// A project's counts for `todoctl projects` and `summary`: its open and done todos,
/// those of its sub-projects included, as Taskwarrior's `task projects` counts them
/// (`home` counts `home.garden`'s), from each todo's project.
public struct ProjectTally: Sendable, Equatable, Codable {
    /// The whole name, `home.garden`.
    public let project: String
    public let open: Int
    public let done: Int

    public init(project: String, open: Int, done: Int) {
        self.project = project
        self.open = open
        self.done = done
    }

    /// How deep in the hierarchy: 0 for `home`, 1 for `home.garden`.
    public var depth: Int { project.count { $0 == "." } }

    /// The last part of the name, `garden` for `home.garden`, as an indented list shows it.
    public var leaf: String { project.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? project }

    /// Done in percent of all, rounded down so that 100 means all done.
    public var percentDone: Int { open + done == 0 ? 0 : done * 100 / (open + done) }

    /// Every project named by `todos` (deleted ones left out) and each of its parents,
    /// in name order, so that sub-projects come right under their parent.
    public static func tallies(of todos: [Todo]) -> [ProjectTally] {
        var counts: [String: (open: Int, done: Int)] = [:]
        for todo in todos where !todo.isDeleted {
            // Empty parts (`home..x`, `.x`: a replayed log's, as validation refuses them) name no project of their own.
            guard let project = todo.project else { continue }
            let parts = project.split(separator: ".")
            guard !parts.isEmpty else { continue }
            // The project and each project above it: home.garden counts for home too.
            for end in 1...parts.count {
                let name = parts[..<end].joined(separator: ".")
                var count = counts[name] ?? (0, 0)
                if todo.isCompleted { count.done += 1 } else { count.open += 1 }
                counts[name] = count
            }
        }
        // Ordered by parts, not by the whole text: "home.garden" before "home-office".
        return counts.sorted { $0.key.split(separator: ".").lexicographicallyPrecedes($1.key.split(separator: ".")) }
            .map { ProjectTally(project: $0.key, open: $0.value.open, done: $0.value.done) }
    }

    private enum CodingKeys: String, CodingKey {
        case project, open, done, percentDone
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(project: try c.decode(String.self, forKey: .project), open: try c.decode(Int.self, forKey: .open), done: try c.decode(Int.self, forKey: .done))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(project, forKey: .project)
        try c.encode(open, forKey: .open)
        try c.encode(done, forKey: .done)
        try c.encode(percentDone, forKey: .percentDone)
    }
}
