import Foundation
import TodoClient
import TodoEvents
import TodoViewModel

/// The journal read through the daemon (`requestLog`), oldest change first, one answer's
/// worth at a time: `todoctl log` prints each page, `burndown` counts it, and neither holds
/// the whole journal.
enum JournalPages {
    /// Hands `body` every change made at or after `since` (all without it), page by page.
    /// A full page (or one that says `more`) may be followed by another.
    static func read(_ client: TodoConnection, since: Date? = nil, _ body: (ChangeList) throws -> Void) throws {
        var after: UInt64 = 0
        while true {
            let list = try page(client, LogRequest(since: since, after: after, limit: ChangeList.maximumChanges))
            try body(list)
            guard list.changes.count == ChangeList.maximumChanges || list.more == true, let last = list.changes.last else { return }
            after = last.sequence
        }
    }

    static func page(_ client: TodoConnection, _ request: LogRequest) throws(TodoClientError) -> ChangeList {
        try client.ask(.requestLog(request)) { if case .responseLog(let list) = $0 { list } else { nil } }
    }
}
