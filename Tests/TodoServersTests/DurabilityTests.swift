import Foundation
import GRDB
import Testing
import TodoModel
@testable import TodoServers

/// A write is acknowledged only once it is on disk: the writer connection commits with
/// `synchronous = FULL`. (GRDB's pool sets NORMAL when it turns WAL on; with NORMAL a WAL
/// commit reaches the disk only at the next checkpoint, and a power cut loses it.)
@Suite("Durability")
struct DurabilityTests {
    @Test("the writer commits with synchronous = FULL, also after a migration and a commit")
    func writerFlushesEveryCommit() throws {
        let directory = try TemporaryDirectory()
        let store = try TodoStore(path: directory.databasePath)
        _ = try store.commit([.create(NewTodo(title: "on disk when acknowledged"))], at: Date())
        let mode = try store.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(mode == 2, "PRAGMA synchronous is \(mode.map(String.init) ?? "nothing"): 2 is FULL, 1 NORMAL")
        #expect(try store.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }
}
