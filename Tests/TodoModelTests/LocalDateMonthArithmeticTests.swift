import Testing
import TodoModel

@Suite("LocalDate months, years and edges")
struct LocalDateMonthArithmeticTests {
    private func day(_ text: String) -> LocalDate { LocalDate(text)! }

    @Test("adding months keeps the day of the month, clamped to the month's end", arguments: [
        ("2026-01-31", 1, "2026-02-28"), ("2024-01-31", 1, "2024-02-29"), ("2026-03-31", 1, "2026-04-30"),
        ("2026-01-15", 1, "2026-02-15"), ("2026-12-10", 1, "2027-01-10"), ("2026-03-31", -1, "2026-02-28"),
        ("2026-01-31", 13, "2027-02-28"), ("2026-05-31", -12, "2025-05-31"),
    ])
    func addingMonths(start: String, months: Int, expected: String) {
        #expect(day(start).adding(months: months) == day(expected))
    }

    @Test("adding years turns February 29 into February 28 in a common year")
    func addingYears() {
        #expect(day("2024-02-29").adding(years: 1) == day("2025-02-28"))
        #expect(day("2024-02-29").adding(years: 4) == day("2028-02-29"))
        #expect(day("9998-06-01").adding(years: 5) == day("9999-06-01"))
    }

    @Test("weeks run Monday to Sunday; months and years have their edges")
    func edges() {
        let sunday = day("2026-11-22"), monday = day("2026-11-23")
        #expect(sunday.startOfWeek == day("2026-11-16"))
        #expect(sunday.endOfWeek == sunday)
        #expect(monday.startOfWeek == monday)
        #expect(monday.endOfWeek == day("2026-11-29"))
        #expect(day("2024-02-10").endOfMonth == day("2024-02-29"))
        #expect(day("2026-02-10").endOfMonth == day("2026-02-28"))
        #expect(day("2026-02-10").startOfMonth == day("2026-02-01"))
        #expect(day("2026-07-04").startOfYear == day("2026-01-01"))
        #expect(day("2026-07-04").endOfYear == day("2026-12-31"))
        #expect(day("2026-11-20").isWeekday && !day("2026-11-21").isWeekday)
    }
}
