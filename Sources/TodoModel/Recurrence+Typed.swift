/// A period as people type it: todod's own (`3d`, `2w`, `1m`, `weekly`, `weekdays`) and
/// Taskwarrior's `recur` words and durations (`biweekly`, `quarterly`, `2weeks`, `3mo`,
/// `2q`). The one reader for `add` and `edit` (`recur:`, `--every`), watch's form and the
/// Taskwarrior import, so that what one takes the others take: add refused `recur:biweekly`,
/// which the import read. The wire keeps to `period`'s form (`init(_:basis:)`).
extension Recurrence {
    public init?(typed text: String, basis: Basis = .due) {
        if let rule = Recurrence(text, basis: basis) {
            self = rule
            return
        }
        let lower = text.lowercased()
        if let (count, unit) = Self.taskwarriorWords[lower] {
            self.init(count: count, unit: unit, basis: basis)
            return
        }
        // Taskwarrior's durations: a count and a unit, `2weeks`, `3mo`, `2q` (a unit alone,
        // `w`, is no duration to Taskwarrior; the whole words are named periods above).
        let digits = lower.prefix { $0.isASCII && $0.isNumber }
        guard (1...3).contains(digits.count), let (size, unit) = Self.taskwarriorUnits[String(lower.dropFirst(digits.count))],
            let number = Int(digits)
        else { return nil }
        let count = number * size
        guard (1...Recurrence.maximumCount).contains(count) else { return nil }
        self.init(count: count, unit: unit, basis: basis)
    }

    /// The forms `init(typed:basis:)` reads, for error messages and help.
    public static let typedForms = accepted + ", or Taskwarrior's (biweekly, fortnight, quarterly, semiannual, annual, 2weeks, 3mo, 2q …)"

    /// Taskwarrior's named periods (its `recur` values), as a count of todod's units.
    private static let taskwarriorWords: [String: (Int, Unit)] = [
        "day": (1, .day), "week": (1, .week), "biweekly": (2, .week), "fortnight": (2, .week),
        "month": (1, .month), "bimonthly": (2, .month), "quarter": (3, .month), "quarterly": (3, .month), "semiannual": (6, .month),
        "annual": (1, .year), "year": (1, .year), "biannual": (2, .year), "biyearly": (2, .year),
    ]

    /// Taskwarrior's duration units that todod can repeat by, each as a count of its units
    /// (a quarter is 3 months). Minutes, hours and ISO periods (`P2W`) are not read: a
    /// todo repeats by days at the finest.
    private static let taskwarriorUnits: [String: (Int, Unit)] = [
        "d": (1, .day), "day": (1, .day), "days": (1, .day),
        "w": (1, .week), "wk": (1, .week), "wks": (1, .week), "week": (1, .week), "weeks": (1, .week),
        "m": (1, .month), "mo": (1, .month), "mos": (1, .month), "mth": (1, .month), "mths": (1, .month), "mnths": (1, .month),
        "month": (1, .month), "months": (1, .month),
        "q": (3, .month), "qtr": (3, .month), "qtrs": (3, .month), "qrtr": (3, .month), "quarter": (3, .month), "quarters": (3, .month),
        "y": (1, .year), "yr": (1, .year), "yrs": (1, .year), "year": (1, .year), "years": (1, .year),
    ]
}
