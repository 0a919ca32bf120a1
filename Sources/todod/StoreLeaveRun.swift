import ArgumentParser
import Foundation
import TodoDaemon
import TodoServers

/// `todod --leave-store`: a replica of a shared store made a database of its own, on purpose.
enum StoreLeaveRun {
    /// - Parameter keepingUnshared: leave even with changes made here that the store never got
    ///   (they stay in this database, shared only if it joins the store again); without it such a
    ///   database is refused. "In this database only" was said, and joining again shared them
    ///   (outside probe 11, F13).
    static func run(database: String, keepingUnshared: Bool) throws {
        do {
            guard FileManager.default.fileExists(atPath: database) else {
                throw TodoStoreError("there is no database at \(database): give the replica with --database")
            }
            try DatabaseLock.holding(database, for: "leave the store") {
                let store = try TodoStore(path: database)
                guard let shared = try store.replicaOf() else {
                    return print("\(database) is no replica of a shared store: nothing to do")
                }
                // Once it left, they never will be shared: said before, not after (outside probe O9).
                let unshared = try store.unsharedChangeCount()
                guard unshared == 0 || keepingUnshared else {
                    throw TodoStoreError("""
                        \(unshared) change\(unshared == 1 ? "" : "s") made here while \(shared) was away \(unshared == 1 ? "is" : "are") not \
                        shared yet, and once this database leaves the store \(unshared == 1 ? "it reaches" : "they reach") the other machines \
                        only if it joins the store again: start todod with --store once more to share \(unshared == 1 ? "it" : "them") first \
                        (`todoctl status` says when none is left), or give --keep-unshared to leave anyway (\(unshared == 1 ? "it stays" : "they stay") \
                        in this database, shared if it joins the store again)
                        """)
                }
                try store.leaveSharedStore()
                print("""
                    \(database) is no longer the replica of \(shared): todod uses it alone from now on; started with --store \
                    again, it joins that store, what it changed alone shared then (renumbered where the store gave the numbers)
                    """)
                if unshared > 0 {
                    print("""
                        \(unshared) change\(unshared == 1 ? "" : "s") made here while the store was away, not shared, \(unshared == 1 ? "stays" : "stay") \
                        in this database: \(unshared == 1 ? "it reaches" : "they reach") the other machines only if it joins the store again \
                        (todod --store), with what it changes alone meanwhile
                        """)
                }
            }
        } catch {
            FileHandle.standardError.write(Data("todod: cannot leave the store with \(database): \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
