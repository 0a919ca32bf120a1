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

@Suite("LocalDate arithmetic against Foundation's calendar")
struct LocalDateCalendarTests {
    @Test("every day from 1899 to 2101: the same weekday, the next day and the day count as Foundation's Gregorian calendar")
    func agreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var instant = try #require(calendar.date(from: DateComponents(year: 1899, month: 1, day: 1, hour: 12)))
        var previous: LocalDate?
        while calendar.component(.year, from: instant) < 2102 {
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: instant)
            let date = try #require(LocalDate(year: parts.year!, month: parts.month!, day: parts.day!))
            #expect(date.weekday == parts.weekday, "\(date)")
            #expect(LocalDate(date.description) == date)
            if let previous {
                #expect(previous.adding(days: 1) == date, "\(previous) + 1")
                #expect(previous.days(until: date) == 1)
            }
            previous = date
            instant = instant.addingTimeInterval(86_400)
        }
        #expect(LocalDate(year: 2100, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2026, month: 13, day: 1) == nil)
        #expect(LocalDate("2026-1-01") == nil)
        #expect(LocalDate("2026-01-0x") == nil)
        #expect(LocalDate(year: 9, month: 3, day: 4)?.description == "0009-03-04")
    }
}
