import Foundation

/// Rebuilds every todo from the journal alone and compares it with the table: what
/// `todod --check` reports. Pure: the store reads, this judges.
public enum JournalCheck {
    /// Each difference in words; empty when the journal and the table agree.
    /// - Parameters:
    ///   - journal: every entry, in seq order (`before` is not needed).
    ///   - table: every row of the todo table.
    ///   - lastChange: the change counter; no entry may be past it.
    public static func differences(journal: [JournalEntry], table: [Todo], lastChange: UInt64) -> [String] {
        var problems: [String] = []
        var rebuilt: [UUID: Todo] = [:]
        var order: [UUID] = []
        var lastSeq: UInt64 = 0
        for entry in journal {
            let id = entry.after.id
            if entry.seq <= lastSeq { problems.append("change \(entry.seq) comes after change \(lastSeq)") }
            lastSeq = max(lastSeq, entry.seq)
            let previous = rebuilt[id]
            if previous == nil { order.append(id) }
            let kind = TodoChangeKind(before: previous, after: entry.after)
            if kind != entry.kind {
                problems.append("change \(entry.seq) is journaled as \(entry.kind.rawValue) but its todo before and after make it \(kind.rawValue)")
            }
            if let previous {
                if entry.after.revision <= previous.revision {
                    problems.append("change \(entry.seq) leaves #\(entry.after.number) at revision \(entry.after.revision), not past \(previous.revision)")
                }
                if entry.after.number != previous.number || entry.after.createdAt != previous.createdAt {
                    problems.append("change \(entry.seq) changes the number or creation time of #\(previous.number)")
                }
            }
            rebuilt[id] = entry.after
        }
        if lastSeq > lastChange { problems.append("the journal goes up to change \(lastSeq) but the change counter says \(lastChange)") }
        var rows: [UUID: Todo] = [:]
        for todo in table { rows[todo.id] = todo }
        for id in order {
            guard let expected = rebuilt[id] else { continue }
            guard let row = rows[id] else {
                problems.append("#\(expected.number) (\(id.uuidString.lowercased())) is in the journal but not in the table")
                continue
            }
            if row != expected { problems.append("#\(row.number) differs: \(describe(table: row, journal: expected))") }
        }
        for todo in table where rebuilt[todo.id] == nil {
            problems.append("#\(todo.number) (\(todo.id.uuidString.lowercased())) is in the table but has no change in the journal")
        }
        return problems
    }

    /// `title is "b" in the table, "a" in the journal; revision 3 / 2`.
    static func describe(table: Todo, journal: Todo) -> String {
        var parts = TodoField.allCases.filter { !$0.isEqual(in: table, and: journal) }.map { "\($0.rawValue) differs" }
        if table.revision != journal.revision { parts.append("revision \(table.revision) in the table, \(journal.revision) in the journal") }
        if table.updatedAt != journal.updatedAt { parts.append("updatedAt differs") }
        if table.number != journal.number { parts.append("number \(table.number) in the table, \(journal.number) in the journal") }
        return parts.isEmpty ? "in fields the check does not name" : parts.joined(separator: "; ")
    }
}
