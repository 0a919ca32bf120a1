/// Calendar arithmetic that days alone do not give: months, years, and the edges of a week,
/// month and year. Weeks run Monday to Sunday (ISO 8601).
extension LocalDate {
    /// The same day of the month `count` months later (earlier when negative), clamped to
    /// that month's last day: January 31 plus one month is February 28 (29 in a leap year).
    /// Years stay within 1…9999.
    public func adding(months count: Int) -> LocalDate {
        let index = year * 12 + (month - 1) + min(max(count, -120_000), 120_000)
        let newYear = index >= 0 ? index / 12 : (index - 11) / 12
        return LocalDate(clampedYear: min(max(newYear, 1), 9999), month: index - newYear * 12 + 1, day: day)
    }

    /// The same day `count` years later, February 29 becoming February 28 in a common year.
    public func adding(years count: Int) -> LocalDate {
        // Past ten thousand years every date is clamped anyway; the cap keeps `* 12` from overflowing.
        adding(months: min(max(count, -10_000), 10_000) * 12)
    }

    /// Monday of this date's week.
    public var startOfWeek: LocalDate { adding(days: -((weekday + 5) % 7)) }
    /// Sunday of this date's week.
    public var endOfWeek: LocalDate { startOfWeek.adding(days: 6) }
    /// The first of this date's month.
    public var startOfMonth: LocalDate { LocalDate(clampedYear: year, month: month, day: 1) }
    /// The last day of this date's month.
    public var endOfMonth: LocalDate { LocalDate(clampedYear: year, month: month, day: 31) }
    /// January 1 of this date's year.
    public var startOfYear: LocalDate { LocalDate(clampedYear: year, month: 1, day: 1) }
    /// December 31 of this date's year.
    public var endOfYear: LocalDate { LocalDate(clampedYear: year, month: 12, day: 31) }

    /// Monday … Friday.
    public var isWeekday: Bool { (2...6).contains(weekday) }

    /// A date whose day is clamped to the month's length; year and month must be valid.
    private init(clampedYear year: Int, month: Int, day: Int) {
        self.init(year: year, month: month, day: min(day, LocalDate.daysIn(month: month, year: year)))!
    }
}
