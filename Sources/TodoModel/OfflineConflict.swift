import Foundation

/// A field of a todo whose change made here, while the shared store was away, was not taken
/// when it was shared: the store's value was kept, and this one waits for the user to take it
/// or leave it (`KeptConflict`). Mostly because another machine changed the field too; else
/// because the merged todo broke a rule one machine keeps (`Cause`).
public struct OfflineConflict: Sendable, Equatable, Codable {
    /// Why this machine's value was not taken: each is said apart in the log and in `todoctl
    /// conflicts`, since only the first is two people's wishes (a cycle was logged as "changed
    /// on both", outside probe 9, F7).
    public enum Cause: String, Sendable, Codable, CaseIterable {
        /// Changed on another machine as well: the store's value stays.
        case changedOnBoth
        /// A subtask's parent deleted, completed or purged elsewhere: it is a todo of its own now.
        case parentGone
        /// Made a subtask here while another machine gave it subtasks of its own (subtasks are
        /// one level deep): it stays a parent. Said apart from `parentGone`, whose parent is
        /// gone, where this one's is not (outside probe 11, F13).
        case gainedSubtasks
        /// Made a subtask here of a todo another machine made a subtask meanwhile: it is a
        /// todo of its own now.
        case parentIsSubtask
        /// A dependency added here would make todos wait for each other with what another
        /// machine added.
        case dependencyCycle
        /// Completed here while another machine added an open subtask to it.
        case openSubtasks
    }

    public var id: UUID
    public var number: Int
    public var field: TodoField
    /// The todo as the change made here left it (its `field` is the value not taken).
    public var local: Todo
    /// The todo as the store held it when the change was shared.
    public var theirs: Todo
    /// When the change was made here.
    public var at: Date
    public var cause: Cause

    public init(id: UUID, number: Int, field: TodoField, local: Todo, theirs: Todo, at: Date, cause: Cause = .changedOnBoth) {
        self.id = id
        self.number = number
        self.field = field
        self.local = local
        self.theirs = theirs
        self.at = at
        self.cause = cause
    }

    private enum CodingKeys: String, CodingKey {
        case id, number, field, local, theirs, at, cause
    }

    /// A conflict kept before causes were told apart reads as changed on both sides.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(UUID.self, forKey: .id), number: try c.decode(Int.self, forKey: .number),
            field: try c.decode(TodoField.self, forKey: .field), local: try c.decode(Todo.self, forKey: .local),
            theirs: try c.decode(Todo.self, forKey: .theirs), at: try c.decode(Date.self, forKey: .at),
            cause: try c.decodeIfPresent(Cause.self, forKey: .cause) ?? .changedOnBoth)
    }
}
