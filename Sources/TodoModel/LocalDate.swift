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
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...LocalDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Parses `YYYY-MM-DD`.
    public init?(_ text: String) {
        // Byte by byte: a list of ten thousand todos reads ten thousand of these.
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The days of a month of the Gregorian calendar.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The day `instant` falls on here (see `LocalMinute` for why not `TimeZone.current`).
    public init(_ instant: Date) {
        self = LocalMinute(instant).date
    }

    /// The day `instant` falls on in `timeZone`.
    public init(_ instant: Date, in timeZone: TimeZone) {
        var calendar = LocalDate.calendar
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        (year, month, day) = (c.year!, c.month!, c.day!)
    }

    public var description: String {
        // Ten bytes written as digits: three Strings padded and joined were about 1,900
        // instructions a date, and a list draws one for every dated row (callgrind).
        if (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) {
            func digit(_ value: Int) -> UInt8 { UInt8(ascii: "0") + UInt8(value % 10) }
            let dash = UInt8(ascii: "-")
            return String(
                decoding: [
                    digit(year / 1000), digit(year / 100), digit(year / 10), digit(year), dash, digit(month / 10), digit(month), dash,
                    digit(day / 10), digit(day),
                ], as: UTF8.self)
        }
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(until other: LocalDate) -> Int {
        other.dayNumber - dayNumber
    }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> LocalDate {
        LocalDate(dayNumber: dayNumber + count)
    }

    /// 1 = Sunday … 7 = Saturday, as Foundation's Gregorian calendar counts.
    public var weekday: Int {
        // Day 0 (1970-01-01) was a Thursday, weekday 5.
        ((dayNumber + 4) % 7 + 7) % 7 + 1
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

    /// Days since 1970-01-01, by Howard Hinnant's `days_from_civil`: plain arithmetic, where
    /// Foundation's calendar took microseconds a date (a long list computes thousands).
    public var daysSince1970: Int { dayNumber }

    private var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01 (earlier when negative).
    public init(daysSince1970 days: Int) {
        self.init(dayNumber: days)
    }

    /// The date `dayNumber` days after 1970-01-01 (`civil_from_days`).
    private init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}
