import Foundation

/// A local day and time on the wall clock as the instant it names in a zone, which a change
/// of summer time can make none or two: the one rule every format and todoctl read local
/// times by (RFC 5545 §3.3.5, which Taskwarrior follows too).
///
/// - A time the clocks skip (Berlin's 2027-03-28 02:30: they go from 02:00 to 03:00) is read
///   with the offset in force before the gap: 02:30+01:00, 01:30Z, which the clocks show as
///   03:30. todoctl refuses such a time as typed (`DueDateParser.parseWithTime`); a file
///   that holds one (an import) is read so.
/// - A time the clocks show twice (2026-10-25 02:30) is the first of the two: the offset
///   before the change again (02:30+02:00).
public enum LocalInstant: Sendable, Equatable {
    /// The clocks show this time once.
    case once(Date)
    /// The clocks skip it: `instant` by the offset before the gap; `from` and `to` the local
    /// minutes they jump between (02:00 and 03:00).
    case skipped(instant: Date, from: TimeOfDay, to: TimeOfDay)
    /// The clocks show it twice: `first` (summer time's), then `second`.
    case twice(first: Date, second: Date)

    /// The instant RFC 5545 reads: the only one, the one by the offset before a gap, the first of two.
    public var instant: Date {
        switch self {
        case .once(let instant), .skipped(let instant, _, _), .twice(let instant, _): instant
        }
    }

    /// `date` at `time` (its midnight without one), and `second`s after, where `offset`
    /// gives the zone's seconds east of UTC at an instant.
    public init(_ date: LocalDate, _ time: TimeOfDay?, second: Int = 0, offset: (Date) -> Int) {
        self.init(wallSeconds: date.daysSince1970 * 86_400 + (time?.minutes ?? 0) * 60 + second, offset: offset)
    }

    /// As `init(_:_:second:offset:)` in `zone`.
    public init(_ date: LocalDate, _ time: TimeOfDay?, second: Int = 0, in zone: TimeZone) {
        self.init(date, time, second: second) { zone.secondsFromGMT(for: $0) }
    }

    /// `wall`: the local time as seconds since 1970-01-01 00:00 on the wall clock.
    init(wallSeconds wall: Int, offset: (Date) -> Int) {
        func at(_ seconds: Int) -> Int { offset(Date(timeIntervalSince1970: TimeInterval(seconds))) }
        // A zone changes its offset at most once in two days: the offsets a day either side
        // are the ones this time can be read with.
        let before = at(wall - 86_400), after = at(wall + 86_400)
        let readings = (before == after ? [before] : [before, after]).map { wall - $0 }.filter { at($0) == wall - $0 }.sorted()
        switch readings.count {
        case 1: self = .once(Date(timeIntervalSince1970: TimeInterval(readings[0])))
        case 0:
            // The change falls between the instant read with the offset after (still before
            // it) and the one read with the offset before (past it): found to the second.
            var (low, high) = (wall - after, wall - before)
            while high - low > 1 {
                let middle = (low + high) / 2
                if at(middle) == before { low = middle } else { high = middle }
            }
            func minute(_ seconds: Int) -> TimeOfDay {
                TimeOfDay(minutes: ((seconds % 86_400 + 86_400) % 86_400) / 60) ?? TimeOfDay(minutes: 0)!
            }
            self = .skipped(instant: Date(timeIntervalSince1970: TimeInterval(wall - before)), from: minute(high + before), to: minute(high + after))
        default:
            self = .twice(first: Date(timeIntervalSince1970: TimeInterval(readings[0])), second: Date(timeIntervalSince1970: TimeInterval(readings[1])))
        }
    }
}
