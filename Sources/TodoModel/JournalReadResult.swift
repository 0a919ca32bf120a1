/// The answer to a journal read, current as of the change `asOf`.
public enum JournalReadResult: Sendable, Codable, Equatable {
    /// With `more`, the entries stopped at `maximumPageBytes`: more follow after the last.
    case entries(JournalQuery, [JournalEntry], asOf: UInt64, more: Bool = false)
    /// More changes than the query's limit: the asker should read the whole list instead.
    case tooFarBehind(JournalQuery, asOf: UInt64)
    case failed(JournalQuery, TodoModelError)

    /// About how many bytes of todo text (counted twice per change, for `before`) one
    /// answer to a log or history read carries at most; it always carries one change.
    public static let maximumPageBytes = 4 << 20
}
