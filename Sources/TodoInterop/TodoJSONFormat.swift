import Foundation
import TodoModel

/// todod's own JSON: an array of todos as the protocol codes them (docs/PROTOCOL.md),
/// instants in ISO 8601 with milliseconds. Lossless: every field, `foreign` included.
public enum TodoJSONFormat {
    /// The todos of `todoctl export --to json`, or the first one that does not fit and why.
    /// A time of day `zone`'s clocks skip (a file written under another zone or rules) is read
    /// as the other formats read one (`BasicTime.existing`).
    public static func decode(_ data: Data, zone: TimeZone = .current) throws(InteropError) -> [ImportedTodo] {
        do {
            let todos = try decoder.decode([Todo].self, from: data)
            // A parent is named by its number in the file, by its id in an import (numbers are each database's own).
            let ids = Dictionary(todos.map { ($0.number, $0.id) }) { first, _ in first }
            return todos.map { todo in
                let due = todo.due.map { BasicTime.existing($0, todo.dueTime, in: zone) }
                let wait = todo.wait.map { BasicTime.existing($0, todo.waitTime, in: zone) }
                let scheduled = todo.scheduled.map { BasicTime.existing($0, todo.scheduledTime, in: zone) }
                return ImportedTodo(
                    id: todo.id, title: todo.title, notes: todo.notes, priority: todo.priority, due: due?.day,
                    tags: todo.tags, createdAt: todo.createdAt, updatedAt: todo.updatedAt,
                    completedAt: todo.completedAt, deletedAt: todo.deletedAt, foreign: todo.foreign,
                    recurrence: todo.recurrence, parentID: todo.parent.flatMap { ids[$0] }, wait: wait?.day,
                    annotations: todo.annotations, project: todo.project, started: todo.started, carriesStart: true, depends: todo.depends, scheduled: scheduled?.day,
                    until: todo.until, dueTime: due?.time, waitTime: wait?.time, scheduledTime: scheduled?.time,
                    carriesTimes: true)
            }
        } catch let DecodingError.keyNotFound(key, context) {
            throw InteropError(path(context.codingPath), "has no \"\(key.stringValue)\"; --from json reads what `todoctl export --to json` writes")
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            throw InteropError(path(context.codingPath), "is not \(words(for: type)); --from json reads what `todoctl export --to json` writes")
        } catch let DecodingError.dataCorrupted(context) {
            throw InteropError(path(context.codingPath), context.debugDescription)
        } catch {
            throw InteropError("input", "is not todod's JSON (an array of todos, as `todoctl export --to json` writes): \(error)")
        }
    }

    /// A Swift type as the JSON it stands for.
    private static func words(for type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "what a todo holds there (\(type))"
        }
    }

    /// Pretty-printed, keys sorted: stable text for version control.
    public static func encode(_ todos: [Todo]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(format(date))
        }
        return ((try? encoder.encode(todos)) ?? Data("[]".utf8)) + Data("\n".utf8)
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not an instant like 2026-11-22T02:32:02.677Z")
            }
            return date
        }
        return decoder
    }

    /// `todo 3, field due` from a coding path.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard let index = codingPath.first?.intValue else { return "input" }
        let field = codingPath.dropFirst().map(\.stringValue).joined(separator: ".")
        return "todo \(index + 1)" + (field.isEmpty ? "" : ", field \(field)")
    }

    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    static func format(_ date: Date) -> String { formatter().string(from: date) }

    static func parse(_ text: String) -> Date? {
        if let date = formatter().date(from: text) { return date }
        let plain = ISO8601DateFormatter()
        return plain.date(from: text)
    }
}
