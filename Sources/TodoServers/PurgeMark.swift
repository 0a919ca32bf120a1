import GRDB

/// The change number of the newest purge, kept in the `counter` table as `purge`: `undo`
/// and `redo` do not step back past it (what it removed took part of the history with it).
///
/// A purge takes a change number that no journal row holds, and undo used to find it as the
/// first number missing below the last change. Sharing changes kept offline leaves numbers
/// unused too (the changes made again follow the numbers every client saw, `PendingChanges`),
/// and undo then stopped there, blaming a purge (outside probe O4). So a purge is recorded
/// where it happens: here (`TodoTransaction.purge`), taken from a shared store (its purge
/// list), or replayed from another journal (a gap there was its purge); a number left
/// unused by sharing is not one.
enum PurgeMark {
    /// The newest purge's change number; 0 when there was none.
    static func newest(in db: Database) throws -> UInt64 {
        UInt64(try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM counter WHERE name = 'purge'")) ?? 0)
    }

    /// Records a purge at `seq` (an older one than the newest changes nothing).
    static func record(_ seq: UInt64, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO counter (name, value) VALUES ('purge', ?)
            ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)
            """).execute(arguments: [Int64(seq)])
    }

    /// A database journaled before purges were recorded: its newest number that no row holds
    /// was a purge (or a change to todos purged since), as undo read it then.
    static func registerMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("journal: the newest purge recorded") { db in
            let change = try Int64.fetchOne(db, sql: "SELECT value FROM counter WHERE name = 'change'") ?? 0
            let newestRow = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM journal") ?? 0
            let missing = newestRow < change
                ? change
                : try Int64.fetchOne(db, sql: """
                    SELECT MAX(seq) - 1 FROM journal AS j
                    WHERE seq > 1 AND NOT EXISTS (SELECT 1 FROM journal AS k WHERE k.seq = j.seq - 1)
                    """) ?? 0
            if missing > 0 { try record(UInt64(missing), in: db) }
        }
    }
}
