/// How a todo repeats: every `count` units, counted from its due date (`--every`) or from
/// the day it was done (`--every-after`). Coded as `{"every": "1w", "from": "due"}`.
public struct Recurrence: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Unit: String, Sendable, Hashable, Codable {
        case day = "d", week = "w", month = "m", year = "y"
        /// The next Monday-to-Friday day.
        case weekday = "weekdays"
    }

    /// What the next due date is counted from.
    public enum Basis: String, Sendable, Hashable, Codable {
        /// The todo's due date: done late, the next one is still a period after the due date.
        case due
        /// The day it was completed.
        case completion
    }

    public var count: Int
    public var unit: Unit
    public var basis: Basis
    /// For months and years from the due date: the day of the month to come back to, so
    /// that a todo due on the 31st falls on the 28th in February and the 31st again in March.
    public var dayOfMonth: Int?

    /// The most units one period may hold.
    public static let maximumCount = 999

    public init(count: Int, unit: Unit, basis: Basis = .due, dayOfMonth: Int? = nil) {
        self.count = unit == .weekday ? 1 : count
        self.unit = unit
        self.basis = basis
        self.dayOfMonth = dayOfMonth
    }

    /// Reads `3d`, `2w`, `1m`, `1y`, `daily`, `weekly`, `monthly`, `yearly`, `weekdays`;
    /// nil for anything else, a count of 0, or one above `maximumCount`.
    public init?(_ text: String, basis: Basis = .due) {
        let word = text.lowercased()
        let words: [String: Unit] = ["daily": .day, "weekly": .week, "monthly": .month, "yearly": .year, "weekdays": .weekday]
        if let unit = words[word] {
            self.init(count: 1, unit: unit, basis: basis)
            return
        }
        guard let last = word.last, let unit = Unit(rawValue: String(last)), unit != .weekday,
            (2...4).contains(word.utf8.count), word.utf8.dropLast().allSatisfy({ (48...57).contains($0) }),
            let count = Int(word.dropLast()), (1...Recurrence.maximumCount).contains(count)
        else { return nil }
        self.init(count: count, unit: unit, basis: basis)
    }

    /// The forms `init(_:basis:)` reads, for error messages and help.
    public static let accepted = "Nd, Nw, Nm, Ny (N from 1 to \(maximumCount)), daily, weekly, monthly, yearly or weekdays"

    /// The period as typed: `1w`, `weekdays`.
    public var period: String { unit == .weekday ? "weekdays" : "\(count)\(unit.rawValue)" }

    /// "every week", "every 3 days", "every weekday", "3 days after completion".
    public var description: String {
        let names: [Unit: String] = [.day: "day", .week: "week", .month: "month", .year: "year", .weekday: "weekday"]
        let name = names[unit]!
        let span = count == 1 ? name : "\(count) \(name)s"
        switch basis {
        case .due: return "every \(span)"
        case .completion: return (count == 1 ? "1 \(name)" : span) + " after completion"
        }
    }

    /// The same rule, remembering `due`'s day of the month when months or years are counted
    /// from the due date.
    public func anchored(to due: LocalDate?) -> Recurrence {
        var anchored = self
        anchored.dayOfMonth = basis == .due && (unit == .month || unit == .year) ? due?.day : nil
        return anchored
    }

    /// When the next occurrence is due, for a todo due on `due` (if it has a date) and
    /// completed on `completedOn`. Without a due date, it counts from the completion.
    /// Nil when that day would be past the calendar's end (9999-12-31): no next occurrence.
    public func nextDue(after due: LocalDate?, completedOn: LocalDate) -> LocalDate? {
        let base = basis == .due ? (due ?? completedOn) : completedOn
        let next = movedOn(from: base)
        return next > base && next.year <= 9999 ? next : nil
    }

    /// `base` moved on by one period (years and months stop at 9999).
    private func movedOn(from base: LocalDate) -> LocalDate {
        switch unit {
        case .day: return base.adding(days: count)
        case .week: return base.adding(days: 7 * count)
        case .month, .year:
            let moved = unit == .month ? base.adding(months: count) : base.adding(years: count)
            guard let dayOfMonth, dayOfMonth > moved.day else { return moved }
            let last = LocalDate.daysIn(month: moved.month, year: moved.year)
            return LocalDate(year: moved.year, month: moved.month, day: min(dayOfMonth, last)) ?? moved
        case .weekday:
            var next = base.adding(days: 1)
            while !next.isWeekday { next = next.adding(days: 1) }
            return next
        }
    }

    private enum CodingKeys: String, CodingKey {
        case every, from, day
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let every = try c.decode(String.self, forKey: .every)
        let basis = try c.decodeIfPresent(Basis.self, forKey: .from) ?? .due
        guard var rule = Recurrence(every, basis: basis) else {
            throw DecodingError.dataCorruptedError(
                forKey: .every, in: c, debugDescription: "\"\(every)\" is not a period; write \(Recurrence.accepted)")
        }
        rule.dayOfMonth = try c.decodeIfPresent(Int.self, forKey: .day).flatMap { (1...31).contains($0) ? $0 : nil }
        self = rule
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(period, forKey: .every)
        try c.encode(basis, forKey: .from)
        try c.encodeIfPresent(dayOfMonth, forKey: .day)
    }
}
