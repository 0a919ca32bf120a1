import Foundation
import Logging
import SharedStoreContract
import TodoModel

/// Shares the changes made on this machine while the store was away (`PendingChanges`), in
/// one shared transaction, and says in the log what became of them: renumbered todos,
/// conflicts by their cause, todos made again. At start (`ReplicaStart`) and once the store is
/// back (`ReplicaSync`).
enum PendingSharing {
    /// Shares `pending`'s changes through `shared`, a page (`PendingChanges.pageSize`) in each
    /// shared transaction, so that other daemons' writes go on between them; each begun after
    /// the store's change the pending ones follow, which must be the replica's: `refuse` throws
    /// if not (a running daemon refuses writes for good); without it, a `TodoStoreError` (at
    /// start, which then stops). Nil when there are none; else what the pages did, together.
    ///
    /// The renumbering of each page is logged (`logger`) as soon as both sides committed it: said
    /// only once all were shared, a kill between two pages left it never told (outside probe 11,
    /// F1: a thousand todos renumbered on every machine, and no line said so).
    static func share(_ pending: PendingChanges, through shared: any SharedStore, now: Date, logger: Logger,
                      refuse: ((SharedChanges, UInt64) throws -> Void)? = nil) throws -> PendingChanges.Shared? {
        var outcome: PendingChanges.Shared?
        while let mark = try pending.mark() {
            let page = try pending.sharePage(mark, through: shared, now: now) { theirs in
                if let refuse {
                    try refuse(theirs, mark.base)
                } else if let reason = try ReplicaCheck.notReplica(pending.store, of: theirs, replica: mark.base) {
                    throw TodoStoreError(reason)
                }
            }
            for (was, now) in page.renumbered {
                logger.notice("#\(was) is now #\(now): another machine had given its number to another todo meanwhile")
            }
            outcome = outcome.map { $0.followed(by: page) } ?? page
            // Each page ends the mark or leaves a new one (a new push id): the same again would go round for ever.
            if try pending.mark() == mark { throw TodoStoreError("sharing the pending changes after change \(mark.base) did not get past it: stop todod and report this") }
        }
        return outcome
    }

    /// What happened to a field changed here while the store was unreachable, by why it is a conflict.
    private static func words(_ cause: OfflineConflict.Cause) -> String {
        switch cause {
        case .changedOnBoth: "a field changed on this machine while the store was unreachable was changed on another meanwhile"
        case .parentGone: """
            a subtask made or edited on this machine while the store was unreachable has a parent another machine deleted, \
            completed or purged meanwhile: it is a todo of its own now
            """
        case .gainedSubtasks: """
            a todo made a subtask on this machine while the store was unreachable was given subtasks on another machine \
            meanwhile: it stays a parent, a todo of its own
            """
        case .parentIsSubtask: """
            a todo made a subtask on this machine while the store was unreachable has a parent another machine made a \
            subtask meanwhile: it is a todo of its own now
            """
        case .dependencyCycle: """
            a dependency added on this machine while the store was unreachable would make todos wait for each other with \
            those another machine added meanwhile
            """
        case .openSubtasks: "a todo completed on this machine while the store was unreachable was given an open subtask on another machine meanwhile"
        }
    }

    /// Says in the log what sharing the pending changes did (the renumbering was said page by page).
    static func tell(_ outcome: PendingChanges.Shared, logger: Logger) {
        logger.notice("the changes made on this machine while the shared store was unreachable are shared",
                      metadata: ["changes": "\(outcome.shared.count)", "others": "\(outcome.taken.count)", "conflicts": "\(outcome.conflicts.count)"])
        for conflict in outcome.conflicts {
            logger.warning("\(Self.words(conflict.cause)): the store's value was kept, this machine's is a conflict, kept in its database (todoctl conflicts)",
                           metadata: ["todo": "#\(conflict.number)", "field": "\(conflict.field.rawValue)"])
        }
        for todo in outcome.remade {
            let state = todo.isDeleted ? "deleted, with this machine's changes (todoctl restore brings it back)" : "with this machine's changes"
            logger.warning("a todo changed on this machine while the store was unreachable had been purged on another machine meanwhile: it is made again, \(state)",
                           metadata: ["todo": "#\(todo.number)", "title": "\(todo.title)"])
        }
    }
}
