import Foundation
import Testing
import TodoModel

/// A local time as an instant across a change of summer time, by RFC 5545's rule: Berlin's
/// clocks go from 02:00 to 03:00 on 2027-03-28 and from 03:00 back to 02:00 on 2026-10-25.
@Suite("Local times as instants")
struct LocalInstantTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let newYork = TimeZone(identifier: "America/New_York")!

    private func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("A time the clocks skip is read with the offset before the gap and says what the clocks go between: Berlin's 2027-03-28 02:30 is 01:30Z, 02:00 to 03:00")
    func skipped() {
        let instant = LocalInstant(LocalDate("2027-03-28")!, TimeOfDay("02:30"), in: berlin)
        #expect(instant == .skipped(instant: utc("2027-03-28T01:30:00Z"), from: TimeOfDay("02:00")!, to: TimeOfDay("03:00")!), "\(instant)")
        #expect(instant.instant == utc("2027-03-28T01:30:00Z"))
        // New York's gap: 02:00 to 03:00 on 2027-03-14, before it UTC-5.
        let york = LocalInstant(LocalDate("2027-03-14")!, TimeOfDay("02:15"), in: newYork)
        #expect(york == .skipped(instant: utc("2027-03-14T07:15:00Z"), from: TimeOfDay("02:00")!, to: TimeOfDay("03:00")!), "\(york)")
    }

    @Test("A time the clocks show twice is the first (summer time's), the second kept beside it; the minutes either side of a change are the one instant each")
    func twice() {
        let instant = LocalInstant(LocalDate("2026-10-25")!, TimeOfDay("02:30"), in: berlin)
        #expect(instant == .twice(first: utc("2026-10-25T00:30:00Z"), second: utc("2026-10-25T01:30:00Z")), "\(instant)")
        #expect(instant.instant == utc("2026-10-25T00:30:00Z"))
        #expect(LocalInstant(LocalDate("2026-10-25")!, TimeOfDay("03:00"), in: berlin) == .once(utc("2026-10-25T02:00:00Z")))
        #expect(LocalInstant(LocalDate("2027-03-28")!, TimeOfDay("01:59"), in: berlin) == .once(utc("2027-03-28T00:59:00Z")))
        #expect(LocalInstant(LocalDate("2027-03-28")!, TimeOfDay("03:00"), in: berlin) == .once(utc("2027-03-28T01:00:00Z")))
        #expect(LocalInstant(LocalDate("2026-12-24")!, nil, second: 1, in: berlin) == .once(utc("2026-12-23T23:00:01Z")))
    }
}
