import ArgumentParser
import Foundation
import TodoDaemon
import TodoServers

/// `todod --leave-store`: a replica of a shared store made a database of its own, on purpose.
enum StoreLeaveRun {
    static func run(database: String) throws {
        do {
            guard FileManager.default.fileExists(atPath: database) else {
                throw TodoStoreError("there is no database at \(database): give the replica with --database")
            }
            try DatabaseLock.holding(database, for: "leave the store") {
                let store = try TodoStore(path: database)
                guard let shared = try store.replicaOf() else {
                    return print("\(database) is no replica of a shared store: nothing to do")
                }
                try store.markReplica(of: nil)
                print("""
                    \(database) is no longer the replica of \(shared): todod uses it alone from now on, and once it changes \
                    alone that store refuses it (its history its own); a replica again is a new --database file, filled from the store
                    """)
            }
        } catch {
            FileHandle.standardError.write(Data("todod: cannot leave the store with \(database): \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
