import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An instant as people read it here: the local day, hour and minute (`2026-11-22 14:05`),
/// in this process's time zone (`TZ`, else /etc/localtime).
///
/// Read with the C library's `localtime_r`, not Foundation's `TimeZone.current` and
/// `Calendar.current`: those load ICU's locale, calendar and time-zone data on first use,
/// which perf measured at about a sixth of `todoctl show`'s CPU time once ArgumentParser's
/// start-up was gone (docs/PERFORMANCE.md, "Start-up"). Both read the same zone.
public struct LocalMinute: Sendable, Equatable, CustomStringConvertible {
    public let date: LocalDate
    public let hour: Int
    public let minute: Int

    public init(_ instant: Date) {
        var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        // localtime_r fails only for a year that does not fit an Int32: UTC's day then.
        guard localtime_r(&seconds, &fields) != nil,
            let date = LocalDate(year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday))
        else {
            self.date = LocalDate(instant, in: TimeZone(identifier: "UTC") ?? .current)
            (hour, minute) = (0, 0)
            return
        }
        self.date = date
        (hour, minute) = (Int(fields.tm_hour), Int(fields.tm_min))
    }

    /// The instant `date` at `hour`:`minute` begins here, by the one rule for local times
    /// (`LocalInstant`, RFC 5545's: a minute the clocks show twice is the first; `mktime`
    /// took the second, an hour after what the formats and the phone read); nil for a time
    /// of day that is none.
    public static func instant(_ date: LocalDate, hour: Int = 0, minute: Int = 0) -> Date? {
        guard let time = TimeOfDay(hour: hour, minute: minute) else { return nil }
        return LocalInstant(date, time, offset: offset(at:)).instant
    }

    /// This zone's seconds east of UTC at `instant` (the C library's, as `init(_:)` reads
    /// the zone): what `LocalInstant` reads a local time here with.
    public static func offset(at instant: Date) -> Int {
        var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        return localtime_r(&seconds, &fields) == nil ? 0 : Int(fields.tm_gmtoff)
    }

    /// This process's zone's offset from UTC at `instant`, in seconds, east positive
    /// (`localtime_r`'s `tm_gmtoff`: 32400 in Tokyo); 0 when it cannot be read.
    public static func utcOffset(at instant: Date) -> Int {
        var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        guard localtime_r(&seconds, &fields) != nil else { return 0 }
        return Int(fields.tm_gmtoff)
    }

    /// `UTC+09:00`, `UTC-05:30`, `UTC+00:00`: an offset as messages say it.
    public static func describe(utcOffset seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let (hours, rest) = (minutes / 60, minutes % 60)
        return "UTC\(seconds < 0 ? "-" : "+")\(hours < 10 ? "0" : "")\(hours):\(rest < 10 ? "0" : "")\(rest)"
    }

    /// `2026-11-22 14:05`
    public var description: String {
        "\(date) \(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
    }

    /// `14:05`
    public var clock: String { String(description.suffix(5)) }
}
