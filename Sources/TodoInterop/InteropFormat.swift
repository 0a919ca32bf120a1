import Foundation
import TodoModel

/// The formats todod imports and exports, by the names `todoctl import --from` takes.
public enum InteropFormat: String, Sendable, CaseIterable {
    case taskwarrior, ical, todotxt, json

    /// The todos `data` holds, or where and why it cannot be read. `now` stands in for
    /// change times a format does not record.
    public func decode(_ data: Data, now: Date, zone: TimeZone = .current) throws(InteropError) -> [ImportedTodo] {
        switch self {
        case .taskwarrior: try TaskwarriorFormat.decode(data, zone: zone)
        case .ical: try ICalendarFormat.decode(InteropText.unfoldedUTF8(data), now: now, zone: zone)
        case .todotxt: try TodoTxtFormat.decode(InteropText.utf8(data), now: now, zone: zone)
        case .json: try TodoJSONFormat.decode(data, zone: zone)
        }
    }

    /// `todos` in this format; days and times in `zone` where the format has local ones.
    public func encode(_ todos: [Todo], zone: TimeZone = .current) -> Data {
        switch self {
        case .taskwarrior: TaskwarriorFormat.encode(todos, zone: zone)
        case .ical: Data(ICalendarFormat.encode(todos, zone: zone).utf8)
        case .todotxt: Data(TodoTxtFormat.encode(todos, zone: zone).utf8)
        case .json: TodoJSONFormat.encode(todos)
        }
    }
}
