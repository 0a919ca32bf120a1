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
    /// The store's value, which was kept, whole: a title or notes as they are, for a JSON
    /// client to show or compare (they were a line's words, quoted and cut at 60 characters:
    /// outside probe 11, F13); `keptWords` says it in a line.
    public var kept: String
    /// This machine's value, which was not taken, whole as `kept`; `notTakenWords` in a line.
    public var notTaken: String
    /// Why it was not taken (`OfflineConflict.Cause`'s name); absent from a daemon older than
    /// the causes, whose every conflict was changed on both sides. A name this client does not
    /// know (a newer daemon's) is kept as it came, so a cause added later breaks no client.
    public var cause: ConflictCause?
    /// When the change was made on this machine.
    public var at: Date
    public var state: KeptConflict.State
    /// When it was taken or left; absent while open.
    public var settledAt: Date?

    /// Why this machine's value was not taken, in words after the value: "changed on another
    /// machine meanwhile" or the rule the merged todo would have broken.
    public var why: String {
        switch cause ?? .known(.changedOnBoth) {
        case .unknown(let name): "\(name) (a reason this todoctl is too old to say in words)"
        case .known(let cause): Self.words(cause)
        }
    }

    private static func words(_ cause: OfflineConflict.Cause) -> String {
        switch cause {
        case .changedOnBoth: "changed on another machine meanwhile"
        case .parentGone: "its parent was deleted, completed or purged on another machine"
        case .gainedSubtasks: "another machine gave it subtasks meanwhile, and a subtask has none"
        case .parentIsSubtask: "another machine made its parent a subtask meanwhile, and a subtask has none"
        case .dependencyCycle: "with another machine's dependencies the todos would wait for each other"
        case .openSubtasks: "another machine gave it an open subtask meanwhile"
        }
    }

    /// The store's value as a line says it, as history says a change's: a title or notes quoted, cut at 60 characters.
    public var keptWords: String { Self.words(field, kept) }
    /// This machine's value as a line says it (`keptWords`).
    public var notTakenWords: String { Self.words(field, notTaken) }

    /// `field`'s value in `todo`, whole: the text of a title, notes or annotations, the words history uses for the others.
    private static func value(_ field: TodoField, _ todo: Todo, numbers: [UUID: Int]) -> String {
        switch field {
        case .title: todo.title
        case .notes: todo.notes
        case .annotations where !todo.annotations.isEmpty: todo.annotations.map { "\"\($0.description)\"" }.joined(separator: ", ")
        default: JournaledChange.words(field, todo, numbers: numbers)
        }
    }

    private static func words(_ field: TodoField, _ value: String) -> String {
        field == .title || field == .notes ? JournaledChange.quoted(value) : value
    }

    public init(_ kept: KeptConflict) {
        let conflict = kept.conflict
        n = kept.n
        id = conflict.id.uuidString.lowercased()
        number = conflict.number
        title = conflict.theirs.title
        field = conflict.field
        self.kept = Self.value(conflict.field, conflict.theirs, numbers: kept.numbers)
        notTaken = Self.value(conflict.field, conflict.local, numbers: kept.numbers)
        cause = .known(conflict.cause)
        at = conflict.at
        state = kept.state
        settledAt = kept.settledAt
    }
}

/// A conflict's cause as the wire carries it: one of `OfflineConflict.Cause`, or a name a newer
/// daemon added that this client does not know, kept as it came and shown as it is (a closed
/// enum made an older todoctl fail to read every conflict once a cause was added).
public enum ConflictCause: Sendable, Equatable, Codable {
    case known(OfflineConflict.Cause)
    case unknown(String)

    public init(_ name: String) {
        self = OfflineConflict.Cause(rawValue: name).map(Self.known) ?? .unknown(name)
    }

    /// The name on the wire: the case's, or the unknown one as it came.
    public var name: String {
        switch self {
        case .known(let cause): cause.rawValue
        case .unknown(let name): name
        }
    }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// `responseConflicts`: this machine's conflicts, oldest first.
public struct ConflictList: Sendable, Equatable, Codable {
    public var conflicts: [ConflictViewModel]

    public init(conflicts: [ConflictViewModel]) {
        self.conflicts = conflicts
    }
}
