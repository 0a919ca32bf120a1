import Foundation
import TodoModel

/// One row of a list, display-ready: every text a View shows is computed here, in
/// `init`, so that Views only lay it out.
///
/// On the wire it is coded as its Todo's fields, and the texts are computed again where
/// it is decoded, so that "today" is the reader's today.
public struct TodoViewModel: Sendable, Equatable, Identifiable, Codable {
    public let todo: Todo
    /// `#3`
    public let numberText: String
    /// `[x]` when completed, `[ ]` when open.
    public let doneBox: String
    /// `!` for high, `·` for low, empty for normal.
    public let priorityMark: String
    /// The due date as people say it ("today", "in 3 days", "2 days overdue"), or nil.
    public let dueText: String?
    /// Due before today and still open.
    public let isOverdue: Bool
    /// `#home #errands`
    public let tagsLine: String

    public var id: UUID { todo.id }
    public var number: Int { todo.number }
    public var title: String { todo.title }
    public var isCompleted: Bool { todo.isCompleted }
    public var isDeleted: Bool { todo.isDeleted }

    public init(_ todo: Todo, today: LocalDate = LocalDate(Date())) {
        self.todo = todo
        numberText = "#\(todo.number)"
        doneBox = todo.isCompleted ? "[x]" : "[ ]"
        priorityMark = Self.mark(for: todo.priority)
        dueText = todo.due.map { Self.describe(due: $0, today: today) }
        isOverdue = !todo.isCompleted && todo.due.map { $0 < today } == true
        tagsLine = todo.tags.map { "#\($0)" }.joined(separator: " ")
    }

    public init(from decoder: any Decoder) throws {
        self.init(try Todo(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try todo.encode(to: encoder)
    }

    static func mark(for priority: Priority) -> String {
        switch priority {
        case .high: "!"
        case .normal: ""
        case .low: "·"
        }
    }

    /// "today", "tomorrow", "in 3 days", "yesterday"-free: "1 day overdue", "2 days overdue";
    /// the date itself from two weeks on.
    public static func describe(due: LocalDate, today: LocalDate) -> String {
        let days = today.days(until: due)
        switch days {
        case 0: return "today"
        case 1: return "tomorrow"
        case 2..<14: return "in \(days) days"
        case -1: return "1 day overdue"
        case ..<(-1): return "\(-days) days overdue"
        default: return due.description
        }
    }
}
