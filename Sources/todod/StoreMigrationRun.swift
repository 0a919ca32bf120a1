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
                let store = try PostgresStore(uri: uri, logger: Logger(label: "todod"))
                defer { store.close() }
                let (todos, _) = try source.loadAll()
                let counters = try source.counters()
                let copied = try store.copy(todos: todos, journal: try source.allChanges(), number: counters.number, change: counters.change)
                // The file is now a replica of the store as it is: it goes on as one.
                try source.markReplica(of: "\(uri)")
                print("\(database): \(copied.todos) todos and \(copied.changes) changes copied to \(uri); start todod with --store \(uri)")
            }
        } catch {
            FileHandle.standardError.write(Data("todod: cannot migrate \(database): \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
