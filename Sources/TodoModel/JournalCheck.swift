import Foundation

/// Rebuilds every todo from the journal alone and compares it with the table: what
/// `todod --check` reports. Pure: the store reads, this judges.
public enum JournalCheck {
    /// Each difference in words; empty when the journal and the table agree.
    /// - Parameters:
    ///   - journal: every entry, in seq order (`before` is not needed).
    ///   - table: every row of the todo table.
    ///   - lastChange: the change counter; no entry may be past it.
    ///   - lastNumber: the number counter; no todo may be past it (the next add would take a
    ///     number in use, and fail).
    public static func differences(journal: [JournalEntry], table: [Todo], lastChange: UInt64, lastNumber: Int = .max) -> [String] {
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
        return problems + links(table, lastNumber: lastNumber)
    }

    /// The number counter and the links between todos: what the journal cannot show,
    /// since a counter or a link changed behind todod's back leaves every entry whole.
    static func links(_ table: [Todo], lastNumber: Int) -> [String] {
        var problems: [String] = []
        let numbers = Set(table.map(\.number))
        if let highest = numbers.max(), highest > lastNumber {
            problems.append("""
                the number counter says \(lastNumber) but #\(highest) exists: every add would take a number in use and fail; \
                set it right (sqlite3 DATABASE "UPDATE counter SET value = \(highest) WHERE name = 'number'") with todod stopped
                """)
        }
        for todo in table {
            // A purge removes deleted todos only, and todod keeps no live subtask under a deleted parent: a live
            // subtask's parent is in the table. An occurrence's previous one may have been purged, but never made later.
            if let parent = todo.parent, parent == todo.number || parent > lastNumber || (todo.deletedAt == nil && !numbers.contains(parent)) {
                problems.append("#\(todo.number) is a subtask of #\(parent), which \(parent == todo.number ? "is itself" : "does not exist")")
            }
            if let previous = todo.previous, previous >= todo.number || previous > lastNumber {
                problems.append("#\(todo.number) repeats #\(previous), which was not made before it")
            }
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
