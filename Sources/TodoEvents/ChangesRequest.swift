/// `requestChanges`: the changes after `since` (a `seq` the client has seen), to catch up
/// without reading the whole list again; at most `limit` (default and most:
/// `ChangeList.maximumChanges`), past which the answer is `tooFarBehind`.
public struct ChangesRequest: Sendable, Equatable, Codable {
    public var since: UInt64
    public var limit: Int?

    public init(since: UInt64, limit: Int? = nil) {
        self.since = since
        self.limit = limit
    }
}
