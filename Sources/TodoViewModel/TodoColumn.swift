import Foundation
import TodoModel

/// A column `todoctl list --columns number,project,title,due` may show, with its heading
/// and its text for a row. The texts are those the default table prints (`TodoTable`):
/// a chosen table reads like the default one with columns left out or added.
public enum TodoColumn: String, Sendable, CaseIterable {
    case number, done, priority, title, due, tags, project, state, wait, created, updated, id

    /// A `--columns` that names a column there is not, said with the columns there are.
    public struct UnknownColumn: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The names people may give, for `--help` and the error.
    public static let nameList = allCases.map(\.rawValue).joined(separator: ", ")

    /// Reads `number,project,title,due`; an unknown or empty name is refused with the
    /// name it begins (`proj`) or the nearest (a typo), and the names there are. A name given twice shows once.
    public static func parse(_ text: String) throws(UnknownColumn) -> [TodoColumn] {
        // `--columns ''` said "an empty column name in --columns ;", naming nothing (outside probe).
        guard text.contains(where: { $0 != "," && !$0.isWhitespace }) else {
            throw UnknownColumn(description: "--columns '\(text)' names no column: give one or more of \(nameList), separated by commas (--columns number,project,title,due)")
        }
        var columns: [TodoColumn] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = piece.trimmingCharacters(in: .whitespaces).lowercased()
            guard let column = TodoColumn(rawValue: name) else {
                let what = name.isEmpty ? "an empty column name" : "unknown column '\(piece)'"
                let meant = name.isEmpty ? nil : Nearest.meant(by: name, in: allCases.map(\.rawValue))
                throw UnknownColumn(
                    description: "\(what) in --columns '\(text)'; \(meant.map { "did you mean \($0)? " } ?? "")the columns are \(nameList) (--columns number,project,title,due)")
            }
            // Refused, not merged: a column named twice is a slip, and which place it meant is a guess.
            guard !columns.contains(column) else {
                throw UnknownColumn(description: "column '\(column.rawValue)' is named twice in --columns '\(text)'; name each once, in the order wanted")
            }
            columns.append(column)
        }
        return columns
    }

    /// The heading over the column.
    public var heading: String {
        switch self {
        case .number: "#"
        case .done: "[ ]"
        case .priority: "!"
        default: rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        }
    }

    /// The column's text for `row`, unescaped (a View escapes titles and tags); empty when
    /// the row has none.
    public func text(for row: TodoViewModel) -> String {
        let todo = row.todo
        return switch self {
        case .number: row.numberText
        case .done: row.doneBox
        case .priority: row.priorityMark
        case .title: row.title
        case .due: row.dueText ?? ""
        case .tags: row.tagsLine
        case .project: todo.project ?? ""
        case .state: todo.isDeleted ? "deleted" : todo.isCompleted ? "done" : "open"
        case .wait: row.waitText ?? ""
        case .created: LocalDate(todo.createdAt).description
        case .updated: LocalDate(todo.updatedAt).description
        case .id: todo.id.uuidString.lowercased()
        }
    }
}
