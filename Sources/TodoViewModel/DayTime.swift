import TodoModel

/// A day, and the time of day on it when one was given (`due:2026-12-24T15:00`, `--due 'fri 9am'`):
/// what the words for due, wait and scheduled give (`DueDateParser.parseWithTime`).
public struct DayTime: Sendable, Equatable, CustomStringConvertible {
    public var date: LocalDate
    /// nil for the whole day, as a date without a time has always been.
    public var time: TimeOfDay?

    public init(_ date: LocalDate, _ time: TimeOfDay? = nil) {
        self.date = date
        self.time = time
    }

    /// `2026-12-24`, or `2026-12-24T15:00` (ISO 8601, local time, as Taskwarrior takes it).
    public var description: String {
        time.map { "\(date)T\($0)" } ?? date.description
    }
}
