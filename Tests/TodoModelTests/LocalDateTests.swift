import Foundation
import Testing
import TodoModel

@Suite("LocalDate")
struct LocalDateTests {
    @Test("parses YYYY-MM-DD and prints it back")
    func parsesAndPrints() throws {
        let date = try #require(LocalDate("2026-02-28"))
        #expect(date.year == 2026)
        #expect(date.month == 2)
        #expect(date.day == 28)
        #expect(date.description == "2026-02-28")
        #expect(LocalDate("0001-01-01")?.description == "0001-01-01")
    }

    @Test("refuses impossible dates and other shapes", arguments: [
        "2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-01-00",
        "2026-2-3", "20260203", "2026/02/03", "26-02-03", "abcd-ef-gh", "", "2026-02-03T10:00", "0000-01-01",
    ])
    func refusesInvalid(_ text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test("knows leap years")
    func leapYears() {
        #expect(LocalDate("2024-02-29") != nil)
        #expect(LocalDate("2000-02-29") != nil)
        #expect(LocalDate("1900-02-29") == nil)
        #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2028, month: 2, day: 29) != nil)
    }

    @Test("adds days across months, years and leap days")
    func addingDays() throws {
        let endOfFebruary = try #require(LocalDate("2026-02-28"))
        #expect(endOfFebruary.adding(days: 1) == LocalDate("2026-03-01"))
        #expect(try #require(LocalDate("2024-02-28")).adding(days: 1) == LocalDate("2024-02-29"))
        #expect(try #require(LocalDate("2026-01-01")).adding(days: -1) == LocalDate("2025-12-31"))
        #expect(endOfFebruary.adding(days: 365) == LocalDate("2027-02-28"))
        #expect(endOfFebruary.adding(days: 0) == endOfFebruary)
    }

    @Test("counts whole days between dates, negative backwards")
    func daysUntil() throws {
        let newYear = try #require(LocalDate("2026-01-01"))
        #expect(newYear.days(until: try #require(LocalDate("2026-12-31"))) == 364)
        #expect(newYear.days(until: newYear) == 0)
        #expect(newYear.days(until: try #require(LocalDate("2025-12-30"))) == -2)
        #expect(try #require(LocalDate("2024-02-28")).days(until: try #require(LocalDate("2024-03-01"))) == 2)
        // Around the end of daylight saving time in Europe the answer is still whole days.
        #expect(try #require(LocalDate("2026-10-24")).days(until: try #require(LocalDate("2026-10-26"))) == 2)
    }

    @Test("orders by year, then month, then day")
    func ordering() throws {
        let dates = ["2026-03-01", "2025-12-31", "2026-02-28", "2026-03-10"].compactMap(LocalDate.init)
        #expect(dates.sorted().map(\.description) == ["2025-12-31", "2026-02-28", "2026-03-01", "2026-03-10"])
    }

    @Test("the day an instant falls on depends on the time zone")
    func dayOfInstant() throws {
        // 2026-01-01 23:30 UTC is already 2026-01-02 in Berlin (UTC+1) and still 2026-01-01 in New York.
        let instant = Date(timeIntervalSince1970: 1_767_310_200)
        #expect(LocalDate(instant, in: try #require(TimeZone(secondsFromGMT: 0))).description == "2026-01-01")
        #expect(LocalDate(instant, in: try #require(TimeZone(secondsFromGMT: 3600))).description == "2026-01-02")
        #expect(LocalDate(instant, in: try #require(TimeZone(secondsFromGMT: -5 * 3600))).description == "2026-01-01")
    }

    @Test("codes as a JSON string and refuses an invalid one")
    func coding() throws {
        let date = try #require(LocalDate("2026-03-04"))
        let json = String(decoding: try JSONEncoder().encode([date]), as: UTF8.self)
        #expect(json == #"["2026-03-04"]"#)
        #expect(try JSONDecoder().decode([LocalDate].self, from: Data(json.utf8)) == [date])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalDate].self, from: Data(#"["2026-02-30"]"#.utf8))
        }
    }

    @Test("weekday counts 1 = Sunday")
    func weekday() throws {
        #expect(try #require(LocalDate("2026-11-22")).weekday == 1)  // a Sunday
        #expect(try #require(LocalDate("2026-11-28")).weekday == 7)
    }
}
