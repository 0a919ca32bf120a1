import Foundation

/// A read of the journal (the model side of `requestChanges`, `requestHistory`, `requestLog`).
public enum JournalQuery: Sendable, Codable, Equatable {
    /// The changes after `seq`, oldest first; too far behind past `limit`.
    case after(seq: UInt64, limit: Int)
    /// One todo's changes after the change `after` (0: all), oldest first.
    case history(TodoRef, after: UInt64 = 0)
    /// Changes made at or after `since`, oldest first: the first `limit` after the change
    /// `after` (a page), or without it the last `limit`.
    case log(since: Date?, after: UInt64?, limit: Int)
}
