import Foundation
import TodoModel

/// Dates with a time of day, for due, wait and scheduled (`--due`, `due:`, …): what `parse`
/// reads, and Taskwarrior's forms with a time, read against today and the minute it is now.
///
/// - `2026-12-24T15:00` (also with seconds, which are dropped, or a space: `'2026-12-24 15:00'`)
/// - `now`; `sod` (today 00:00) and `eod` (today 23:59), as Taskwarrior has them
/// - a time alone, `15:00`, `9am`, `3:30pm`, `noon`: the next such time, today's if it is still
///   to come, else tomorrow's, as Taskwarrior's `due:9am`
/// - any day `parse` reads, then a time: `tomorrow 15:00`, `fri 9am`, `dec 24 at 3pm` (one
///   argument: quoted, or `--due 'fri 9am'`), or joined by `@` as one word: `due:fri@9am`
///
/// Taskwarrior 2.6 itself reads `due:'fri 9am'` and `due:fri@9am` as Friday, dropping the time
/// without a word; todod keeps it. What stays ambiguous is refused (`timeProblem`).
extension DueDateParser {
    /// The day and time `text` names, or nil; nil too for a time this zone's clocks skip
    /// (`skipped`), which names no instant.
    public static func parseWithTime(_ text: String, today: LocalDate, now: TimeOfDay) -> DayTime? {
        guard let moment = reading(text, today: today, now: now), skipped(moment) == nil else { return nil }
        return moment
    }

    /// Why `moment` names no instant here, when the clocks skip it as summer time begins
    /// (`LocalInstant`): what they go between and what to write. A time they show twice is
    /// the first (summer time's), as Taskwarrior and RFC 5545 read it: the same minute again.
    public static func skipped(_ moment: DayTime) -> String? {
        guard let time = moment.time, case .skipped(_, let from, let to) = LocalInstant(moment.date, time, offset: LocalMinute.offset(at:)) else {
            return nil
        }
        let before = TimeOfDay(minutes: (from.minutes + 1439) % 1440) ?? from
        return "\(moment.date) \(time) does not exist in \(TimeZone.current.identifier): clocks go from \(from) to \(to); write \(to) or \(before)"
    }

    private static func reading(_ text: String, today: LocalDate, now: TimeOfDay) -> DayTime? {
        if let date = parse(text, today: today) { return DayTime(date) }
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        switch lowered {
        case "now": return DayTime(today, now)
        case "sod": return DayTime(today, TimeOfDay(minutes: 0))
        case "eod": return DayTime(today, .endOfDay)
        default: break
        }
        if let (day, time) = isoParts(lowered) {
            guard let date = LocalDate(day), let time = clock(time, seconds: true) else { return nil }
            return DayTime(date, time)
        }
        if let time = clock(lowered) { return DayTime(time > now ? today : today.adding(days: 1), time) }
        guard let (dayWords, timeWord) = dayAndTime(lowered), let time = clock(timeWord), let date = parse(dayWords, today: today) else {
            return nil
        }
        return DayTime(date, time)
    }

    /// What `parseWithTime` accepts beyond `accepted`, for help and messages.
    public static let acceptedTimes =
        "a time: 2026-12-24T15:00, now, sod, eod (today 23:59), 15:00, 9am or 3:30pm (the next one), or a day then a time: tomorrow 15:00, 'fri 9am', fri@9am"

    /// Why `text` names no day and time, when its time is what does not read: an hour or a
    /// minute that does not exist (`25:00`, `13pm`), a bare number where a time was meant
    /// (`fri 9`), `midnight` (the start or the end of a day?), a time the clocks skip that
    /// day (`skipped`, read against `today` and `now` as `parseWithTime` reads it); nil otherwise.
    public static func timeProblem(with text: String, today: LocalDate, now: TimeOfDay) -> String? {
        if let moment = reading(text, today: today, now: now) { return skipped(moment) }
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        if lowered == "midnight" || lowered.hasSuffix(" midnight") || lowered.hasSuffix("@midnight") {
            return "\(text): midnight is the start of a day or its end: write sod or 00:00 for the start, eod or 23:59 for the end"
        }
        var timeWord = lowered
        var day: String?
        if let (date, time) = isoParts(lowered) ?? dayAndTime(lowered) { (day, timeWord) = (date, time) }
        if let day, isoParts(lowered) != nil {
            // `2026-02-30T10:00`: the day is what does not exist (it got the generic list).
            if LocalDate(day) == nil, let reason = impossibility(of: day) { return reason }
            if let reason = zoneProblem(day: day, time: timeWord) { return "\(text): \(reason)" }
        }
        // `fri 9`, after a day that reads; `feb 30` is a day that does not (`impossibility`).
        if let day, parse(day, today: LocalDate(daysSince1970: 0)) != nil, !timeWord.isEmpty, timeWord.count <= 2,
            timeWord.allSatisfy(\.isNumber)
        {
            return "\(text): \(timeWord) is no time of day: write \(timeWord)am, \(timeWord)pm or \(timeWord.count == 1 ? "0" : "")\(timeWord):00"
        }
        return clockProblem(timeWord).map { "\(text): \($0)" }
    }

    /// Why `15:00Z` or `15:00+02:00` after `day` is not taken: todod keeps local times, so a
    /// zone is refused saying the local time it names here; nil for a time without one.
    private static func zoneProblem(day: String, time: String) -> String? {
        var clockText = Substring(time), offset = 0
        if clockText.hasSuffix("z") {
            clockText = clockText.dropLast()
        } else if let sign = clockText.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = clockText[clockText.index(after: sign)...].split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(zone.count), let hours = Int(zone[0]), let minutes = zone.count == 2 ? Int(zone[1]) : 0 else { return nil }
            offset = (clockText[sign] == "-" ? -1 : 1) * (hours * 60 + minutes)
            clockText = clockText[..<sign]
        } else {
            return nil
        }
        let advice = "todod keeps times in the local zone (\(TimeZone.current.identifier)), so a zone (Z, +02:00) is not taken"
        guard let date = LocalDate(day), let clock = clock(String(clockText), seconds: true) else { return advice + ": write the local time" }
        let instant = Date(timeIntervalSince1970: TimeInterval((date.daysSince1970 * 1440 + clock.minutes - offset) * 60))
        let local = LocalMinute(instant)
        return advice + ": write the local time, \(local.date)T\(local.clock)"
    }

    /// `2026-12-24T15:00` (or with a space) as its day and its time; nil for another shape.
    private static func isoParts(_ text: String) -> (day: String, time: String)? {
        guard text.count > 11 else { return nil }
        let day = String(text.prefix(10))
        let separator = text[text.index(text.startIndex, offsetBy: 10)]
        guard separator == "t" || separator == " ", day.filter({ $0 == "-" }).count == 2, day.first?.isNumber == true else { return nil }
        return (day, String(text.dropFirst(11)))
    }

    /// `fri 9am`, `dec 24 at 3pm`, `fri@9am`: the day's words and the time's word.
    private static func dayAndTime(_ text: String) -> (day: String, time: String)? {
        if let at = text.lastIndex(of: "@") {
            let day = text[..<at].trimmingCharacters(in: .whitespaces)
            return day.isEmpty ? nil : (day, String(text[text.index(after: at)...]).trimmingCharacters(in: .whitespaces))
        }
        var words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count >= 2, let time = words.popLast() else { return nil }
        if words.last == "at", words.count >= 2 { words.removeLast() }
        return (words.joined(separator: " "), time)
    }

    /// `15:00`, `9:05`, `9am`, `12pm`, `3:30pm`, `noon`; with `seconds`, `15:00:30` too (the
    /// seconds dropped: todod keeps minutes).
    private static func clock(_ text: String, seconds: Bool = false) -> TimeOfDay? {
        if text == "noon" { return TimeOfDay(hour: 12, minute: 0) }
        var body = Substring(text)
        var half: Int?
        if body.hasSuffix("am") || body.hasSuffix("pm") {
            half = body.hasSuffix("pm") ? 12 : 0
            body = body.dropLast(2)
        }
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...(seconds && half == nil ? 3 : 2)).contains(fields.count),
            fields.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(fields[0])
        else { return nil }
        // A bare hour is a time only with am or pm: `fri 9` could be anything.
        if fields.count == 1 && half == nil { return nil }
        if fields.count > 1 && fields[1].count != 2 { return nil }
        let minute = fields.count > 1 ? Int(fields[1]) ?? 60 : 0
        if fields.count == 3, !(0..<60).contains(Int(fields[2]) ?? 60) { return nil }
        guard let half else { return TimeOfDay(hour: hour, minute: minute) }
        guard (1...12).contains(hour) else { return nil }
        return TimeOfDay(hour: hour % 12 + half, minute: minute)
    }

    /// Why a word shaped like a time is none: `25:00`, `12:60`, `13pm`, `0am`.
    private static func clockProblem(_ text: String) -> String? {
        var body = Substring(text)
        let twelve = body.hasSuffix("am") || body.hasSuffix("pm")
        if twelve { body = body.dropLast(2) }
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count), fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            twelve || fields.count > 1, let hour = Int(fields[0])
        else { return nil }
        if twelve && !(1...12).contains(hour) { return "there is no \(hour)\(text.suffix(2)); the hours run from 1am to 12pm (noon) and 1pm to 12am (midnight), or write 00:00 to 23:59" }
        if hour == 24 { return "there is no hour 24; hours run from 00 to 23: write 00:00 with the next day, or eod (23:59)" }
        if !(0..<24).contains(hour) { return "there is no hour \(hour); hours run from 00 to 23" }
        if fields.count > 1, fields[1].count != 2 || !(0..<60).contains(Int(fields[1]) ?? 60) {
            return "\(fields[1]) is no minute; minutes are two digits, 00 to 59"
        }
        return nil
    }
}
