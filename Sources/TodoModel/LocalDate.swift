import Foundation

/// A calendar day without a time or zone (a due date), coded as `"YYYY-MM-DD"`.
///
/// A day rather than an instant, so that "due today" means the same day wherever and
/// whenever it is read.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid date, or nil (`2026-02-30` is nil).
    public init?(year: Int, month: Int, day: Int) {
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        guard (1...9999).contains(year), let date = LocalDate.calendar.date(from: components)
        else { return nil }
        let back = LocalDate.calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Parses `YYYY-MM-DD`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day `instant` falls on in `timeZone`.
    public init(_ instant: Date, in timeZone: TimeZone = .current) {
        var calendar = LocalDate.calendar
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        (year, month, day) = (c.year!, c.month!, c.day!)
    }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(until other: LocalDate) -> Int {
        other.dayNumber - dayNumber
    }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> LocalDate {
        let date = LocalDate.calendar.date(byAdding: .day, value: count, to: noonUTC)!
        return LocalDate(date, in: LocalDate.utc)
    }

    /// 1 = Sunday … 7 = Saturday, as Foundation's Gregorian calendar counts.
    public var weekday: Int {
        LocalDate.calendar.component(.weekday, from: noonUTC)
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected a date YYYY-MM-DD, got \"\(text)\""))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // Days are computed in UTC at noon, so that no daylight-saving shift moves them.
    private static let utc = TimeZone(identifier: "UTC")!
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        return calendar
    }()

    private var noonUTC: Date {
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour) = (year, month, day, 12)
        return LocalDate.calendar.date(from: components)!
    }

    private var dayNumber: Int {
        Int((noonUTC.timeIntervalSince1970 / 86_400).rounded(.down))
    }
}
