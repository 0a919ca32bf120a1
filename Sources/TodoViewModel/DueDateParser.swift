import Foundation

import TodoModel

/// Reads a date as people type it (for `--due`, `--wait`, forms and filters), against a
/// given today. Weeks run Monday to Sunday.
///
/// - `2026-12-24`, `today`, `tomorrow`, `yesterday`
/// - a weekday (`friday`, `fri`: the next one after today); `next fri` (that day of next
///   week); `last fri` (the last one before today)
/// - `+3d`, `+2w`, `+1m`, `+1y`, and `-1d` … backwards; `in 3 days`, `in 2 weeks`,
///   `3 days ago`; Taskwarrior's `3d`, `2weeks`, `1q` (that long from today)
/// - `sow`/`eow`, `som`/`eom`, `soy`/`eoy`: start and end of this week, month and year;
///   `next week`/`next month`/`next year`: the first day of the next one
/// - `dec 24`, `24 dec`, `december 24`: the next such day from today on
public enum DueDateParser {
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    private static let months = [
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december",
    ]

    /// The date `text` names, or nil when it is none of the forms in `accepted`.
    public static func parse(_ text: String, today: LocalDate) -> LocalDate? {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        switch words.count {
        case 1: return single(words[0], today: today)
        case 2: return pair(words[0], words[1], today: today)
        case 3: return triple(words, today: today)
        default: return nil
        }
    }

    /// Taskwarrior's words for a time of day, which only due, wait and scheduled keep (`parseWithTime`).
    private static let timesOfDay: Set<String> = ["now", "sod", "eod", "noon", "midnight"]

    /// Taskwarrior's words for a day so far off that it never comes.
    private static let farOff: Set<String> = ["someday", "later"]

    /// The day of `text` when it is a day that exists with a time of day after it (`T10:00`,
    /// ` 10:00`, `T10:00:30`); nil otherwise.
    private static func dayBeforeTime(in text: String) -> String? {
        guard text.count > 10 else { return nil }
        let day = String(text.prefix(10))
        let rest = text.dropFirst(10)
        guard LocalDate(day) != nil, let separator = rest.first, separator == "T" || separator == "t" || separator == " " else { return nil }
        let fields = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        return day
    }

    /// What `parse` accepts, for error messages and help.
    public static let accepted =
        "YYYY-MM-DD, today, tomorrow, yesterday, a weekday (mon … sun), next mon, last mon, "
        + "+3d/+2w/+1m/+1y (or 3d, 2weeks …, as Taskwarrior) or -1d, in 3 days, in 2 weeks, 3 days ago, sow/eow, som/eom, soy/eoy, "
        + "next week/month/year, dec 24 or 24 dec"

    /// Why `text` names no date, when it is shaped like one that does not exist
    /// (`2026-02-30: February 2026 has 28 days`, `feb 30: February has 28 days, 29 in a
    /// leap year`); nil for text of any other shape. Every message about a date that does
    /// not read (options, modifiers, the edit form, watch's prompts, `--since`) asks this.
    public static func impossibility(of text: String) -> String? {
        let word = text.trimmingCharacters(in: .whitespaces)
        // Taskwarrior's times of day: eod was taken for eow, now for sow.
        if timesOfDay.contains(word.lowercased()) {
            return "\(word): a time of day, which due:, wait: and scheduled: (--due, --wait) keep; this takes a day: give today or tomorrow"
        }
        // Taskwarrior's far-off day (2038), which a todo here does without: said, with what
        // there is, where the generic list of forms left the reader to guess (outside probe).
        if farOff.contains(word.lowercased()) {
            return "\(word): todod has no far-off day (Taskwarrior's someday and later): leave the date out, or give a day such as eoy or +3m"
        }
        // `2026-12-24T10:00` and `2026-12-24 10:00`: a day with a time of day, which only due,
        // wait and scheduled keep; the day alone is taken (the generic message hid that).
        if let day = dayBeforeTime(in: word) {
            return "\(word): a time of day, which due:, wait: and scheduled: (--due, --wait) keep; this takes a day: give the day alone, \(day)"
        }
        var words = word.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        // `feb30` (due:feb30 has no space) read as `feb 30`: it was only "not understood".
        if words.count == 1, let split = words[0].firstIndex(where: \.isNumber), split > words[0].startIndex,
            words[0][..<split].allSatisfy(\.isLetter), words[0][split...].allSatisfy(\.isNumber)
        {
            words = [String(words[0][..<split]), String(words[0][split...])]
        }
        if words.count == 2, let (month, day) = month(words[0]).map({ ($0, words[1]) }) ?? month(words[1]).map({ ($0, words[0]) }),
            let day = count(day)
        {
            let name = months[month - 1].capitalized
            if day == 0 { return "\(word): there is no day 0; days run from 1" }
            if month == 2, day > 29 { return "\(word): February has 28 days, 29 in a leap year" }
            let days = LocalDate.daysIn(month: month, year: 2028)
            return day > days ? "\(word): \(name) has \(days) days" : nil
        }
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count >= 4, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), parts[1].count == 2, parts[2].count == 2,
            let month = Int(parts[1]), Int(parts[2]) != nil, LocalDate(word) == nil
        else { return nil }
        // 10000-01-01 read as none of the forms.
        guard parts[0].count == 4, let year = Int(parts[0]) else { return "\(word): there is no year \(parts[0]); years run from 0001 to 9999" }
        if year < 1 { return "\(word): there is no year 0; years run from 0001 to 9999" }
        guard (1...12).contains(month) else { return "\(word): there is no month \(month); months run from 01 to 12" }
        let days = LocalDate.daysIn(month: month, year: year)
        // Day 00 is no day too late: "February 2026 has 28 days" said the wrong thing (outside probe).
        if Int(parts[2]) == 0 { return "\(word): there is no day 00; days run from 01 to \(days) in \(months[month - 1].capitalized) \(parts[0])" }
        return "\(word): \(months[month - 1].capitalized) \(parts[0]) has \(days) days"
    }

    /// What to tell a person whose `text` names no date: why the day does not exist, or
    /// else that it is not a date, the word perhaps meant and the forms; `otherwise` ends
    /// the forms (", or nothing for no due date"). The edit form and watch's prompts say this.
    public static func problem(with text: String, otherwise: String = "") -> String {
        if let reason = impossibility(of: text) { return reason }
        let meant = suggestion(for: text).map { "did you mean \($0)? " } ?? ""
        return "\"\(text)\" is not a date; \(meant)write \(accepted)\(otherwise)"
    }

    /// The word of `accepted` nearest to `text` (one or two letters off), for a typo such as
    /// `tomorow`; nil when none is that near.
    public static func suggestion(for text: String) -> String? {
        let vocabulary = ["today", "tomorrow", "yesterday", "sow", "eow", "som", "eom", "soy", "eoy"] + weekdays + months
        return Nearest.word(to: text.lowercased(), in: vocabulary)
    }

    private static func single(_ word: String, today: LocalDate) -> LocalDate? {
        if let date = LocalDate(word) { return date }
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        case "sow": return today.startOfWeek
        case "eow": return today.endOfWeek
        case "som": return today.startOfMonth
        case "eom": return today.endOfMonth
        case "soy": return today.startOfYear
        case "eoy": return today.endOfYear
        default: break
        }
        if let weekday = weekday(word) {
            let ahead = (weekday - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        // Taskwarrior's durations, which its `due:3d` counts from now: `3d`, `2weeks`, `1q`,
        // read as `recur:` reads them (a digit first: `weekly` names no day).
        if word.first?.isNumber == true, let period = Recurrence(typed: word), period.unit != .weekday {
            return shift(today, by: period.count, unit: period.unit.rawValue)
        }
        guard let sign = word.first, sign == "+" || sign == "-", let unit = word.last,
            let count = count(String(word.dropFirst().dropLast()))
        else { return nil }
        return shift(today, by: sign == "-" ? -count : count, unit: String(unit))
    }

    private static func pair(_ first: String, _ second: String, today: LocalDate) -> LocalDate? {
        switch first {
        case "next":
            switch second {
            case "week": return today.startOfWeek.adding(days: 7)
            case "month": return today.startOfMonth.adding(months: 1)
            case "year": return today.startOfYear.adding(years: 1)
            default:
                guard let weekday = weekday(second) else { return nil }
                return today.startOfWeek.adding(days: 7 + (weekday + 5) % 7)
            }
        case "last":
            guard let weekday = weekday(second) else { return nil }
            let back = (today.weekday - weekday + 7) % 7
            return today.adding(days: -(back == 0 ? 7 : back))
        default:
            if let month = month(first), let day = count(second) { return monthDay(month, day, today: today) }
            if let day = count(first), let month = month(second) { return monthDay(month, day, today: today) }
            return nil
        }
    }

    private static func triple(_ words: [String], today: LocalDate) -> LocalDate? {
        if words[0] == "in", let count = count(words[1], article: true), let unit = unit(words[2]) {
            return shift(today, by: count, unit: unit)
        }
        if words[2] == "ago", let count = count(words[0], article: true), let unit = unit(words[1]) {
            return shift(today, by: -count, unit: unit)
        }
        return nil
    }

    private static func shift(_ date: LocalDate, by count: Int, unit: String) -> LocalDate? {
        switch unit {
        case "d": date.adding(days: count)
        case "w": date.adding(days: count * 7)
        // Months and years stop at the calendar's ends; a shift past them names no date.
        case "m": (1...9999).contains((date.year * 12 + date.month - 1 + count) / 12) ? date.adding(months: count) : nil
        case "y": (1...9999).contains(date.year + count) ? date.adding(years: count) : nil
        default: nil
        }
    }

    /// `day`, `days`, `week` … as the one-letter unit of `+3d`.
    private static func unit(_ word: String) -> String? {
        let singular = word.hasSuffix("s") ? String(word.dropLast()) : word
        return ["day": "d", "week": "w", "month": "m", "year": "y"][singular]
    }

    /// Plain digits, below 100,000 (so no date leaves the calendar); `a`/`an` as one.
    private static func count(_ word: String, article: Bool = false) -> Int? {
        if article, word == "a" || word == "an" { return 1 }
        guard (1..<6).contains(word.utf8.count), word.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(word)
    }

    /// 1 = Sunday … 7 = Saturday, from a name or its first three letters or more.
    private static func weekday(_ word: String) -> Int? {
        guard word.count >= 3, let index = weekdays.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
        return index + 1
    }

    private static func month(_ word: String) -> Int? {
        guard word.count >= 3, let index = months.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
        return index + 1
    }

    /// 1 for `jan`, `January`, `janu` …: a month's name or its first three letters or
    /// more, any case, as a date's month is read (`dec 24`); nil for any other word.
    public static func month(named word: String) -> Int? {
        month(word.lowercased())
    }

    /// The month's name nearest a mistyped one (`febuary`), for "did you mean …?".
    public static func monthMeant(by word: String) -> String? {
        Nearest.word(to: word.lowercased(), in: months)
    }

    /// The first `month`/`day` on or after today (February 29 waits for a leap year).
    private static func monthDay(_ month: Int, _ day: Int, today: LocalDate) -> LocalDate? {
        for year in today.year...(today.year + 8) {
            if let date = LocalDate(year: year, month: month, day: day), date >= today { return date }
        }
        return nil
    }
}
