import Foundation

/// The fields of a todo to be created; the ModelServer gives it its id and number.
public struct NewTodo: Sendable, Codable, Equatable {
    public var title: String
    public var notes: String
    public var priority: Priority
    public var due: LocalDate?
    public var tags: [String]

    public init(title: String, notes: String = "", priority: Priority = .normal, due: LocalDate? = nil, tags: [String] = []) {
        self.title = title
        self.notes = notes
        self.priority = priority
        self.due = due
        self.tags = tags
    }
}

/// Field edits; a nil field is left as it is.
public struct TodoEdit: Sendable, Codable, Equatable {
    public var title: String?
    public var notes: String?
    public var priority: Priority?
    public var due: LocalDate?
    /// Removes the due date (wins over `due`).
    public var clearDue: Bool
    /// Replaces all tags before `addTags` and `removeTags` apply.
    public var tags: [String]?
    public var addTags: [String]
    public var removeTags: [String]

    public init(
        title: String? = nil, notes: String? = nil, priority: Priority? = nil, due: LocalDate? = nil,
        clearDue: Bool = false, tags: [String]? = nil, addTags: [String] = [], removeTags: [String] = []
    ) {
        self.title = title
        self.notes = notes
        self.priority = priority
        self.due = due
        self.clearDue = clearDue
        self.tags = tags
        self.addTags = addTags
        self.removeTags = removeTags
    }

    /// `todo` with these edits applied (revision and timestamps untouched).
    public func applied(to todo: Todo) -> Todo {
        var edited = todo
        if let title { edited.title = title }
        if let notes { edited.notes = notes }
        if let priority { edited.priority = priority }
        if clearDue { edited.due = nil } else if let due { edited.due = due }
        var tagList = tags ?? todo.tags
        for tag in addTags where !tagList.contains(tag) { tagList.append(tag) }
        tagList.removeAll { removeTags.contains($0) }
        edited.tags = tagList
        return edited
    }
}

extension TodoEdit {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decodeIfPresent(String.self, forKey: .title),
            notes: try c.decodeIfPresent(String.self, forKey: .notes),
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority),
            due: try c.decodeIfPresent(LocalDate.self, forKey: .due),
            clearDue: try c.decodeIfPresent(Bool.self, forKey: .clearDue) ?? false,
            tags: try c.decodeIfPresent([String].self, forKey: .tags),
            addTags: try c.decodeIfPresent([String].self, forKey: .addTags) ?? [],
            removeTags: try c.decodeIfPresent([String].self, forKey: .removeTags) ?? [])
    }
}

/// An atomic change to one todo, applied by id to the current row inside a transaction,
/// so that two clients never overwrite each other's edits.
public enum TodoMutation: Sendable, Codable, Equatable {
    case create(NewTodo)
    case complete(TodoRef)
    case reopen(TodoRef)
    case toggleComplete(TodoRef)
    case delete(TodoRef)
    case restore(TodoRef)
    /// Field edits; with `expectedRevision`, refused with a conflict when the todo has
    /// moved on since.
    case edit(TodoRef, TodoEdit, expectedRevision: Int?)

    /// The todo this mutation changes; nil for `create`.
    public var target: TodoRef? {
        switch self {
        case .create: nil
        case .complete(let ref), .reopen(let ref), .toggleComplete(let ref), .delete(let ref), .restore(let ref):
            ref
        case .edit(let ref, _, _): ref
        }
    }

    /// The todo after this mutation, or nil when it changes nothing.
    ///
    /// Revision and `updatedAt` advance on every real change. Throws when the mutation
    /// cannot apply to this todo (a stale revision, an edit of a deleted todo).
    public func applied(to todo: Todo, at now: Date) throws(TodoModelError) -> Todo? {
        var next = todo
        switch self {
        case .create:
            return nil
        case .complete:
            try Self.requireLive(todo)
            next.completedAt = todo.completedAt ?? now
        case .reopen:
            try Self.requireLive(todo)
            next.completedAt = nil
        case .toggleComplete:
            try Self.requireLive(todo)
            next.completedAt = todo.isCompleted ? nil : now
        case .delete:
            next.deletedAt = todo.deletedAt ?? now
        case .restore:
            next.deletedAt = nil
        case .edit(_, let edit, let expectedRevision):
            if let expectedRevision, expectedRevision != todo.revision { throw .conflict(current: todo) }
            try Self.requireLive(todo)
            next = edit.applied(to: todo)
            if next.tags.count > Todo.maximumTagCount {
                throw .invalid(field: "tags", reason: "#\(todo.number) would have \(next.tags.count) tags; the most is \(Todo.maximumTagCount)")
            }
        }
        guard next != todo else { return nil }
        next.revision = todo.revision + 1
        next.updatedAt = now
        return next
    }

    private static func requireLive(_ todo: Todo) throws(TodoModelError) {
        if todo.isDeleted { throw .deleted(todo) }
    }
}

extension NewTodo {
    // Only the title is required; the rest have their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decode(String.self, forKey: .title),
            notes: try c.decodeIfPresent(String.self, forKey: .notes) ?? "",
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority) ?? .normal,
            due: try c.decodeIfPresent(LocalDate.self, forKey: .due),
            tags: try c.decodeIfPresent([String].self, forKey: .tags) ?? [])
    }
}
