import Foundation

/// Which todos a list shows. Deleted todos are left out unless asked for.
public struct TodoFilter: Sendable, Hashable, Codable {
    /// Which states of todo the list holds.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        case open, completed, deleted, all

        /// The next filter round the cycle open → all → completed → deleted → open.
        public var next: Status {
            switch self {
            case .open: .all
            case .all: .completed
            case .completed: .deleted
            case .deleted: .open
            }
        }
    }

    public var status: Status
    public var tag: String?
    public var priority: Priority?
    /// Case-insensitive text to find in the title or the notes.
    public var search: String?

    public init(status: Status = .open, tag: String? = nil, priority: Priority? = nil, search: String? = nil) {
        self.status = status
        self.tag = tag
        self.priority = priority
        self.search = search
    }

    /// Whether `todo` belongs in a list with this filter.
    public func matches(_ todo: Todo) -> Bool {
        switch status {
        case .open: if todo.isDeleted || todo.isCompleted { return false }
        case .completed: if todo.isDeleted || !todo.isCompleted { return false }
        case .deleted: if !todo.isDeleted { return false }
        case .all: if todo.isDeleted { return false }
        }
        if let tag, !todo.tags.contains(tag) { return false }
        if let priority, todo.priority != priority { return false }
        if let search, !search.isEmpty,
            todo.title.range(of: search, options: .caseInsensitive) == nil,
            todo.notes.range(of: search, options: .caseInsensitive) == nil
        {
            return false
        }
        return true
    }
}

extension TodoFilter {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeIfPresent(Status.self, forKey: .status) ?? .open
        tag = try container.decodeIfPresent(String.self, forKey: .tag)
        priority = try container.decodeIfPresent(Priority.self, forKey: .priority)
        search = try container.decodeIfPresent(String.self, forKey: .search)
    }
}
