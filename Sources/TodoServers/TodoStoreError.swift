import Foundation
import GRDB

/// Why the store cannot open a database or write to it; the message says what happened
/// and what to do.
public struct TodoStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// SQLite's error in words: what it means for the database at `path`, and what to do.
    /// SQLite's own message may say nothing (a backup's full disk is "not an error": the
    /// step's code is not the connection's), so the code decides the words.
    init(_ error: DatabaseError, database path: String) {
        // A backup's step has the code but leaves the message at "not an error": the code alone then.
        let words = error.message.flatMap { $0 == "not an error" ? nil : ": \($0)" } ?? ""
        let sqlite = "SQLite error \(error.extendedResultCode.rawValue)\(words)"
        let directory = DatabaseFile.directoryOf(path)
        switch error.resultCode {
        case .SQLITE_FULL:
            self.init("the disk holding \(directory) is full (\(sqlite)): free some space there (df -h \(directory)), then try again")
        // A write cut short by a full disk can come back as an I/O error (a backup's step on a
        // full tmpfs gave SQLITE_IOERR_WRITE): the free space tells which it was.
        case .SQLITE_IOERR where Self.hasNoRoom(directory):
            self.init("the disk holding \(directory) is full (\(sqlite)): free some space there (df -h \(directory)), then try again")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            self.init(TodoStore.corruption(of: path, detail: sqlite))
        case .SQLITE_CONSTRAINT:
            self.init("""
                the database \(path) broke one of its own rules (\(sqlite)): its rows or counters disagree with each other, \
                which todod never writes; see where with `todod --check --database \(path)`, and restore a backup if it \
                reports differences
                """)
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN, .SQLITE_AUTH:
            self.init("the database \(path) could not be written (\(sqlite)): check the permissions of it and of \(directory)")
        case .SQLITE_IOERR:
            self.init("the disk failed while reading or writing \(path) (\(sqlite)): check the disk (dmesg), and free space on it")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self.init("another program holds the database \(path) (\(sqlite)): stop it (fuser \(path) names it), then try again")
        default:
            self.init("the database \(path) failed (\(sqlite))")
        }
    }
}

extension TodoStoreError {
    /// Whether the file system holding `directory` has less room than a few database pages.
    static func hasNoRoom(_ directory: String) -> Bool {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 64 << 10
    }
}

extension TodoStore {
    /// An error met reading or writing this store, in words for its answer: SQLite's said
    /// for what it is (see `TodoStoreError.init(_:database:)`).
    func describe(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return ModelServer.describe(error) }
        return TodoStoreError(error, database: path).message
    }
}
