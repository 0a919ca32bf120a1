import TodoViewModel

/// Keeps the header's totals right while they are asked for again (on connecting, after a
/// gap): the daemon's answer counts up to its sequence number, and the changes seen since
/// the question are counted on top of it. Each question has an id, so that the answer to an
/// older one (from a connection since lost) changes nothing.
public struct TotalsTracker: Sendable, Equatable {
    /// The totals, once the daemon has answered.
    public private(set) var current: TodoTotals?
    /// The question waiting for its answer, and the changes seen since it was asked.
    private var pending: (id: UInt64, changes: [TodoChange])?
    private var lastID: UInt64 = 0

    public init() {}

    /// A new question; answers to older ones are ignored from now on.
    public mutating func ask() -> UInt64 {
        lastID += 1
        pending = (lastID, [])
        return lastID
    }

    /// A change as it arrives, counted now and again on top of the coming answer.
    public mutating func count(_ change: TodoChange) {
        current?.count(change)
        pending?.changes.append(change)
    }

    /// The daemon's counts, for question `id`.
    public mutating func answer(_ totals: TodoTotals, to id: UInt64) {
        guard let pending, pending.id == id else { return }
        var answered = totals
        for change in pending.changes { answered.count(change) }
        current = answered
        self.pending = nil
    }

    /// Question `id` failed (the connection went); the totals stay as they were until the
    /// next question, asked on reconnecting.
    public mutating func failed(_ id: UInt64) {
        if pending?.id == id { pending = nil }
    }

    public static func == (a: TotalsTracker, b: TotalsTracker) -> Bool {
        a.current == b.current && a.lastID == b.lastID && a.pending?.id == b.pending?.id && a.pending?.changes == b.pending?.changes
    }
}
