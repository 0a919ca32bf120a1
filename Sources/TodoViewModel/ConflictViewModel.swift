import Foundation
import TodoModel

/// A conflict as Views show it (`todoctl conflicts`): which todo, which field, the value
/// kept (the store's) and the value not taken (this machine's), in words as history says them.
public struct ConflictViewModel: Sendable, Equatable, Codable {
    /// Its number on this machine: what taking or leaving it names.
    public var n: Int
    /// The todo's id, in lower case as a todo's is on the wire.
    public var id: String
    public var number: Int
    /// The todo's title as the store held it.
    public var title: String
    public var field: TodoField
    /// The store's value, which was kept.
    public var kept: String
    /// This machine's value, which was not taken.
    public var notTaken: String
    /// Why it was not taken (`OfflineConflict.Cause`'s name); absent from a daemon older than
    /// the causes, whose every conflict was changed on both sides.
    public var cause: OfflineConflict.Cause?
    /// When the change was made on this machine.
    public var at: Date
    public var state: KeptConflict.State
    /// When it was taken or left; absent while open.
    public var settledAt: Date?

    /// Why this machine's value was not taken, in words after the value: "changed on another
    /// machine meanwhile" or the rule the merged todo would have broken.
    public var why: String {
        switch cause ?? .changedOnBoth {
        case .changedOnBoth: "changed on another machine meanwhile"
        case .parentGone: "its parent was deleted, completed or purged on another machine, or it was given subtasks there"
        case .dependencyCycle: "with another machine's dependencies the todos would wait for each other"
        case .openSubtasks: "another machine gave it an open subtask meanwhile"
        }
    }

    public init(_ kept: KeptConflict) {
        let conflict = kept.conflict
        n = kept.n
        id = conflict.id.uuidString.lowercased()
        number = conflict.number
        title = conflict.theirs.title
        field = conflict.field
        self.kept = JournaledChange.words(conflict.field, conflict.theirs, numbers: kept.numbers)
        notTaken = JournaledChange.words(conflict.field, conflict.local, numbers: kept.numbers)
        cause = conflict.cause
        at = conflict.at
        state = kept.state
        settledAt = kept.settledAt
    }
}

/// `responseConflicts`: this machine's conflicts, oldest first.
public struct ConflictList: Sendable, Equatable, Codable {
    public var conflicts: [ConflictViewModel]

    public init(conflicts: [ConflictViewModel]) {
        self.conflicts = conflicts
    }
}
