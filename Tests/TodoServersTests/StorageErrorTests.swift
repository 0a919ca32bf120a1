import Foundation
import GRDB
import Testing
@testable import TodoServers

/// SQLite's errors as the store says them: what happened and what to do, instead of one
/// piece of advice ("check free disk space") for all.
@Suite("Storage errors in words")
struct StorageErrorTests {
    static let path = "/home/alice/.local/share/todod/todos.sqlite"

    @Test("a full disk, a damaged file and a broken rule are each said for what they are")
    func eachForWhatItIs() {
        let full = TodoStoreError(DatabaseError(resultCode: .SQLITE_FULL, message: "not an error"), database: Self.path).message
        #expect(full.hasPrefix("the disk holding /home/alice/.local/share/todod is full (SQLite error 13)"), "\(full)")
        #expect(!full.contains("not an error"), "\(full)")
        for code in [ResultCode.SQLITE_CORRUPT, .SQLITE_NOTADB] {
            let damaged = TodoStoreError(DatabaseError(resultCode: code, message: "database disk image is malformed"), database: Self.path).message
            #expect(damaged.contains("the database \(Self.path) is corrupted"), "\(damaged)")
            #expect(damaged.contains("restore a backup"), "\(damaged)")
            #expect(!damaged.contains("disk space") && !damaged.contains("permission"), "\(damaged)")
        }
        let rule = TodoStoreError(DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "UNIQUE constraint failed: todo.number"), database: Self.path)
        #expect(rule.message.contains("broke one of its own rules (SQLite error 19: UNIQUE constraint failed: todo.number)"), "\(rule.message)")
        #expect(rule.message.contains("todod --check --database \(Self.path)"), "\(rule.message)")
    }

    @Test("the refusal of a damaged database names the newest backup in backups/, or says there is none")
    func namesTheLastBackup() throws {
        let directory = try TemporaryDirectory()
        let database = directory.databasePath
        let none = TodoStore.corruption(of: database, detail: "page 3")
        #expect(none.contains("which holds none"), "\(none)")
        let backups = directory.url.appendingPathComponent("backups").path
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        for name in ["todos-20261101-080000-000.sqlite", "todos-20261124-090000-000.sqlite", "todos-20261124-090000-001.sqlite.partial-1A2B3C4D"] {
            #expect(FileManager.default.createFile(atPath: backups + "/" + name, contents: nil))
        }
        let named = TodoStore.corruption(of: database, detail: "page 3")
        #expect(named.contains("here is the last: \(backups)/todos-20261124-090000-000.sqlite)"), "\(named)")
    }
}
