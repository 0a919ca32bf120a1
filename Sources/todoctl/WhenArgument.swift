import ArgumentParser
import Foundation
import TodoClock
import TodoModel
import TodoViewModel

/// A point in the past as typed after `--since` (log, undo, burndown) and purge's
/// `--older-than`: one grammar for all of them, read against the clock every date in
/// todoctl reads (`WallClock`, which tests set with TODOD_TEST_NOW), in local time.
///
/// - a duration back from now: `90s`, `10m`, `2h`, `3d`, `1w`, `1mo`, `1y`; `-10m` is the
///   same (a dash reads naturally as "back"). `m` is minutes to log and undo, whose
///   changes are minutes apart, and months to burndown (`Units.days`), whose bars are days
///   and weeks: `--since 1m` drew today alone (outside probe). To purge's `--older-than`
///   (`Units.spelledOut`) it is neither: deleted todos are kept for months, and `6m` read
///   as minutes purged nearly all of them for good (outside probe 10), so it is refused,
///   asking which was meant. `min` and `mo` say which in all of them.
/// - `3 days ago`, `an hour ago`, `2 weeks ago`, `1 month ago`, `a year ago`
/// - `today`, `yesterday` (their midnight), a date `2026-11-21` (its midnight), a date
///   and time `2026-11-21 14:02` (or `2026-11-21T14:02`), a time today `14:02`
///
/// `+1d` is refused, not read as "a day back": it is tomorrow to `--due`; so are `in 3 days`
/// and any time later than now (a later hour today, tomorrow's date), which would find nothing.
struct WhenArgument: ExpressibleByArgument {
    let date: Date

    /// What a duration's units are to the command reading it: the units differ in `m` alone.
    enum Units {
        /// log, undo, purge: `m` is minutes.
        case minutes
        /// burndown, drawn by day or week: `m` is months.
        case days
        /// purge, which cannot be undone: `m` is refused, `min` or `mo` said.
        case spelledOut

        /// The units, for `--help`.
        var help: String {
            switch self {
            case .minutes: "s, m or min (minutes), h, d, w, mo (months), y"
            case .days: "d, w, m or mo (months), y"
            case .spelledOut: "s, min (minutes), h, d, w, mo (months), y"
            }
        }
    }

    init?(argument: String) {
        guard case .success(let date) = Self.parse(argument, now: WallClock.now()) else { return nil }
        self.date = date
    }

    /// For `transform:`: the instant, or why the text names none, with the forms.
    static func checked(_ text: String) throws -> WhenArgument {
        try checked(text, units: .minutes)
    }

    /// `checked(_:)` for burndown, where `1m` is a month.
    static func checkedDays(_ text: String) throws -> WhenArgument {
        try checked(text, units: .days)
    }

    /// `checked(_:)` for purge, where `6m` is refused as neither minutes nor months.
    static func checkedSpelledOut(_ text: String) throws -> WhenArgument {
        try checked(text, units: .spelledOut)
    }

    private static func checked(_ text: String, units: Units) throws -> WhenArgument {
        switch parse(text, now: WallClock.now(), units: units) {
        case .success(let date): return WhenArgument(date: date)
        case .failure(let problem): throw problem
        }
    }

    private init(date: Date) { self.date = date }

    static let accepted = accepted(.minutes)

    /// The forms, with the units as `units` reads them.
    static func accepted(_ units: Units) -> String {
        let durations = switch units {
        case .minutes: "10m, 2h, 3d, 1w, 1mo, 1y (or -10m …)"
        case .days: "3d, 2w, 1m, 1y (or -2w …)"
        case .spelledOut: "30min, 2h, 30d, 1w, 6mo, 1y (or -30d …)"
        }
        return "\(durations) with units \(units.help), 3 days ago, today, yesterday, 2026-11-21, 2026-11-21 14:02 or 14:02"
    }

    static var defaultValueDescription: String { accepted }

    /// Why a text names no point in the past, as ArgumentParser shows it after the value.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The earliest time taken (year 1): the wire codes times as ISO 8601 years 1 to 9999.
    static let earliest = Date(timeIntervalSince1970: -62_135_596_800)

    static func parse(_ typed: String, now: Date, units: Units = .minutes) -> Result<Date, Problem> {
        let accepted = accepted(units)
        let text = typed.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("+") {
            return .failure(Problem(description: "\(typed) is in the future, and this looks back: write \(text.dropFirst()) for that long ago (the forms: \(accepted))"))
        }
        if units == .spelledOut, let count = ambiguousMinutes(text) {
            return .failure(Problem(description: "\(typed): did you mean \(count)mo (months) or \(count)min (minutes)? m is either, and a purge cannot be undone"))
        }
        if text.hasPrefix("in ") {
            return .failure(Problem(description: "\(typed) is in the future, and this looks back: write \(text.dropFirst(3)) ago for that long ago (the forms: \(accepted))"))
        }
        guard let date = instant(text, now: now, units: units) else {
            let reason = impossibility(of: text).map { $0 + "; " } ?? ""
            return .failure(Problem(description: "\(reason)give one of: \(accepted)"))
        }
        guard date >= earliest else { return .failure(Problem(description: "\(typed) is before the year 1; give a later time (\(accepted))")) }
        // A time later today or a later day would find nothing ("nothing to undo since then"):
        // refused as +1d is, saying what it is.
        guard date <= now else {
            return .failure(Problem(description: "\(typed) is later than now, and this looks back: give a time before now (\(accepted))"))
        }
        return .success(date)
    }

    /// The count of `6m` or `-6m`: a duration in `m`, which purge refuses.
    private static func ambiguousMinutes(_ text: String) -> Substring? {
        let amount = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let digits = amount.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && amount.dropFirst(digits.count) == "m" ? digits : nil
    }

    private static let seconds: [String: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    private static func instant(_ text: String, now: Date, units: Units) -> Date? {
        let here = LocalMinute(now)
        // 10m, -10m, 10min, 2mo: digits, then the unit.
        let amount = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let digits = amount.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, let count = Int(digits) {
            var unit = String(amount.dropFirst(digits.count))
            if unit == "min" { unit = "m" } else if unit == "m" && units == .days { unit = "mo" }
            if let size = seconds[unit] { return now.addingTimeInterval(-Double(count) * size) }
            // Months and years of the calendar back, as `1 month ago`.
            switch unit {
            case "mo" where count < 100_000: return LocalMinute.instant(here.date.adding(months: -count), hour: here.hour, minute: here.minute)
            case "y" where count < 10_000: return LocalMinute.instant(here.date.adding(years: -count), hour: here.hour, minute: here.minute)
            // A date (2026-11-21) or a time (14:02) starts with digits too.
            default: break
            }
        }
        let words = text.split(separator: " ").map(String.init)
        // 3 days ago, an hour ago
        if words.count == 3, words[2] == "ago", let count = ["a": 1, "an": 1][words[0]] ?? Int(words[0]), count >= 0 {
            let unit = words[1].hasSuffix("s") ? String(words[1].dropLast()) : words[1]
            let units: [String: String] = ["second": "s", "minute": "m", "hour": "h", "day": "d", "week": "w"]
            if let short = units[unit], let size = seconds[short] { return now.addingTimeInterval(-Double(count) * size) }
            guard count < 100_000 else { return nil }
            switch unit {
            case "month": return LocalMinute.instant(here.date.adding(months: -count), hour: here.hour, minute: here.minute)
            case "year": return LocalMinute.instant(here.date.adding(years: -count), hour: here.hour, minute: here.minute)
            default: return nil
            }
        }
        switch text {
        case "today": return LocalMinute.instant(here.date)
        case "yesterday": return LocalMinute.instant(here.date.adding(days: -1))
        default: break
        }
        // 2026-11-21, 2026-11-21 14:02, 2026-11-21T14:02, 14:02
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "t" }).map(String.init)
        guard (1...2).contains(parts.count) else { return nil }
        if let day = LocalDate(parts[0]) {
            guard parts.count == 2 else { return LocalMinute.instant(day) }
            return clock(parts[1]).flatMap { LocalMinute.instant(day, hour: $0.hour, minute: $0.minute) }
        }
        guard parts.count == 1, let time = clock(parts[0]) else { return nil }
        return LocalMinute.instant(here.date, hour: time.hour, minute: time.minute)
    }

    /// Why `text` names no time, when its date (`DueDateParser.impossibility`) or its time
    /// of day does not exist: `2026-11-31 14:02`, `25:00`, `2026-11-20 23:60`.
    private static func impossibility(of text: String) -> String? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "t" }).map(String.init)
        guard (1...2).contains(parts.count) else { return nil }
        if let reason = DueDateParser.impossibility(of: parts[0]) { return reason }
        guard let time = parts.last, parts.count == 1 || LocalDate(parts[0]) != nil else { return nil }
        let fields = time.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2, fields.allSatisfy({ (1...2).contains($0.count) }), let hour = Int(fields[0]), let minute = Int(fields[1]) else { return nil }
        if !(0..<24).contains(hour) { return "\(time): there is no hour \(hour); hours run from 00 to 23" }
        if !(0..<60).contains(minute) { return "\(time): there is no minute \(minute); minutes run from 00 to 59" }
        return nil
    }

    /// `14:02`
    private static func clock(_ text: String) -> (hour: Int, minute: Int)? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard fields.count == 2, let hour = fields[0], let minute = fields[1], (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        return (hour, minute)
    }
}
