/// The answer to a journal read, current as of the change `asOf`.
public enum JournalReadResult: Sendable, Codable, Equatable {
    case entries(JournalQuery, [JournalEntry], asOf: UInt64)
    /// More changes than the query's limit: the asker should read the whole list instead.
    case tooFarBehind(JournalQuery, asOf: UInt64)
    case failed(JournalQuery, TodoModelError)
}
