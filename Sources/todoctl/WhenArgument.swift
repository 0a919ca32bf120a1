import ArgumentParser
import Foundation

/// A point in time as typed after `--since`: a duration back from now (`90s`, `30m`, `2h`,
/// `3d`, `1w`), `today`, `yesterday`, a date (`2026-11-21`, its midnight), a date and time
/// (`2026-11-21 14:02` or `2026-11-21T14:02`), or a time today (`14:02`); local time.
struct WhenArgument: ExpressibleByArgument {
    let date: Date

    init?(argument: String) {
        guard let date = Self.parse(argument.trimmingCharacters(in: .whitespaces), now: Date()) else { return nil }
        self.date = date
    }

    static var defaultValueDescription: String { "2h, 30m, 3d, today, yesterday, 2026-11-21, 2026-11-21 14:02 or 14:02" }

    /// The earliest time taken (year 1): the wire codes times as ISO 8601 years 1 to 9999.
    static let earliest = Date(timeIntervalSince1970: -62_135_596_800)

    static func parse(_ text: String, now: Date, calendar: Calendar = .current) -> Date? {
        guard let date = parseAnyTime(text, now: now, calendar: calendar), date >= earliest else { return nil }
        return date
    }

    private static func parseAnyTime(_ text: String, now: Date, calendar: Calendar) -> Date? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        if let unit = text.last, let seconds = units[unit], let amount = Int(text.dropLast()), amount >= 0 {
            return now.addingTimeInterval(-Double(amount) * seconds)
        }
        let today = calendar.startOfDay(for: now)
        switch text {
        case "today": return today
        case "yesterday": return calendar.date(byAdding: .day, value: -1, to: today)
        default: break
        }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        guard (1...2).contains(parts.count) else { return nil }
        var day = today
        var clock = parts[0]
        if parts[0].contains("-") {
            let fields = parts[0].split(separator: "-").compactMap { Int($0) }
            guard fields.count == 3, let date = calendar.date(from: DateComponents(year: fields[0], month: fields[1], day: fields[2])),
                  calendar.component(.day, from: date) == fields[2] else { return nil }
            day = date
            guard parts.count == 2 else { return day }
            clock = parts[1]
        } else if parts.count == 2 {
            return nil
        }
        let hm = clock.split(separator: ":").compactMap { Int($0) }
        guard hm.count == 2, (0..<24).contains(hm[0]), (0..<60).contains(hm[1]) else { return nil }
        return calendar.date(bySettingHour: hm[0], minute: hm[1], second: 0, of: day)
    }
}
