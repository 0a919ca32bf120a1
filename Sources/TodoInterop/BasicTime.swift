import Foundation
import TodoModel

/// The compact times Taskwarrior and iCalendar write: `20261122T153000Z` (UTC),
/// `20261122T153000` (floating: the reader's zone) and `20261122` (a day).
public enum BasicTime {
    /// The instant of `20261122T153000Z`, or of a floating `20261122T153000` in `zone` (one
    /// the zone's clocks skip by the offset before the gap, RFC 5545's rule).
    public static func instant(_ text: String, in zone: TimeZone = .current) -> Date? {
        let utc = text.hasSuffix("Z")
        let digits = Array((utc ? text.dropLast() : Substring(text)).utf8)
        guard digits.count == 15, digits[8] == UInt8(ascii: "T"),
            let day = date(String(decoding: digits[0..<8], as: UTF8.self)),
            let hour = number(digits[9..<11]), let minute = number(digits[11..<13]), let second = number(digits[13..<15]),
            hour < 24, minute < 60, second < 61
        else { return nil }
        guard !utc else { return Date(timeIntervalSince1970: TimeInterval(day.daysSince1970 * 86_400 + hour * 3_600 + minute * 60 + second)) }
        // A floating time the zone skips or shows twice is read by RFC 5545's rule (`LocalInstant`).
        return LocalInstant(day, TimeOfDay(hour: hour, minute: minute), second: min(second, 59), in: zone).instant
    }

    /// The day of `20261122`.
    public static func date(_ text: String) -> LocalDate? {
        let digits = Array(text.utf8)
        guard digits.count == 8, let year = number(digits[0..<4]), let month = number(digits[4..<6]),
            let day = number(digits[6..<8])
        else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    /// `20261122T153000Z`, whole seconds.
    public static func utcText(_ instant: Date) -> String {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let rest = seconds - days * 86_400
        return dateText(LocalDate(daysSince1970: days)) + "T" + two(rest / 3_600) + two(rest / 60 % 60) + two(rest % 60) + "Z"
    }

    /// `150000`: a time of day as a floating date-time's time.
    public static func clockText(_ time: TimeOfDay) -> String {
        two(time.hour) + two(time.minute) + "00"
    }

    /// `20261122`.
    public static func dateText(_ date: LocalDate) -> String {
        date.description.replacingOccurrences(of: "-", with: "")
    }

    /// The instant `date` begins in `zone`: how a due day becomes a Taskwarrior due time.
    public static func midnight(of date: LocalDate, in zone: TimeZone = .current) -> Date {
        LocalInstant(date, nil, in: zone).instant
    }

    /// The instant of `date` at `time` in `zone` (its midnight without one): how a todo's
    /// day and time of day become Taskwarrior's UTC instant, by the zone's offset at that
    /// instant; a time the zone skips or shows twice by RFC 5545's rule (`LocalInstant`).
    public static func instant(of date: LocalDate, at time: TimeOfDay?, in zone: TimeZone = .current) -> Date {
        LocalInstant(date, time, in: zone).instant
    }

    /// The local day of `instant` in `zone`, its time of day to the minute (as todod keeps
    /// times) and the seconds behind that minute.
    public static func localTime(_ instant: Date, in zone: TimeZone = .current) -> (day: LocalDate, time: TimeOfDay, second: Int) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: instant)
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let rest = seconds - days * 86_400
        return (LocalDate(daysSince1970: days), TimeOfDay(minutes: rest / 60) ?? TimeOfDay(minutes: 0)!, rest % 60)
    }

    /// `date` at `time` as the clocks of `zone` show it: itself, or for a time they skip
    /// (a file's 2027-03-28T02:30 in Berlin) the time RFC 5545's instant shows (03:30), so that
    /// every format and todod read a file's local time as the same instant. A whole day stays one.
    public static func existing(_ date: LocalDate, _ time: TimeOfDay?, in zone: TimeZone = .current) -> (day: LocalDate, time: TimeOfDay?) {
        guard let time, case .skipped(let instant, _, _) = LocalInstant(date, time, in: zone) else { return (date, time) }
        let shown = localTime(instant, in: zone)
        return (shown.day, shown.time)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
