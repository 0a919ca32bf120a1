import Foundation

/// `requestLog`: changes made at or after `since`, oldest first: the last `limit` (default
/// and most: `ChangeList.maximumChanges`), or with `after` the first `limit` after that
/// change (to page through the whole journal).
public struct LogRequest: Sendable, Equatable, Codable {
    public var since: Date?
    public var after: UInt64?
    public var limit: Int?

    public init(since: Date? = nil, after: UInt64? = nil, limit: Int? = nil) {
        self.since = since
        self.after = after
        self.limit = limit
    }
}
