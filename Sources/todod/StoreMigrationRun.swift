import ArgumentParser
import Foundation
import Logging
import TodoDaemon
import TodoPostgres
import TodoServers

/// `todod --migrate-to URI`: the database copied into an empty PostgreSQL database, then exit.
enum StoreMigrationRun {
    static func run(database: String, to text: String) throws {
        do {
            guard FileManager.default.fileExists(atPath: database) else {
                throw TodoStoreError("there is no database at \(database): give the one to copy with --database")
            }
            let uri = try StoreURI(text)
            // A daemon writing to the file meanwhile would leave its changes behind.
            try DatabaseLock.holding(database, for: "migrate") {
                let source = try TodoStore(path: database)
                // Another store's replica (its changes kept offline and its conflicts with it) went over
                // without a word, and stopped being that store's (outside probe 11, F9): leaving says what
                // stays unshared, and is done on purpose first.
                if let other = try source.replicaOf(), other != "\(uri)" {
                    throw TodoStoreError("""
                        \(database) is the replica of the shared store \(other), so nothing was copied: to copy its todos into \
                        \(uri), make it a database of its own first with `todod --leave-store --database \(database)` (it says \
                        whether changes made here are not shared yet), then run --migrate-to again
                        """)
                }
                let store = try PostgresStore(uri: uri, logger: Logger(label: "todod"))
                defer { store.close() }
                let (todos, _) = try source.loadAll()
                let counters = try source.counters()
                let copied = try store.copy(todos: todos, journal: try source.allChanges(), number: counters.number, change: counters.change)
                // The file is now a replica of the store as it is: it goes on as one.
                try source.markReplica(of: "\(uri)")
                print("\(database): \(copied.todos) todo\(copied.todos == 1 ? "" : "s") and \(copied.changes) change\(copied.changes == 1 ? "" : "s") copied to \(uri); start todod with --store \(uri)")
            }
        } catch {
            FileHandle.standardError.write(Data("todod: cannot migrate \(database): \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
