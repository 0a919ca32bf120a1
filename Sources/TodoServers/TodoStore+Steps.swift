import GRDB
import TodoModel

/// A step that goes on across requests: a command of several (`todoctl done 1 2 3`, an
/// import in batches) names the step its first change began, so that one undo takes it
/// back whole. Another client's change may come in between: a step's rows need not be
/// consecutive (`JournalSteps` reads it whole, at its newest row).
extension TodoStore {
    /// The most changes a step grows to across requests: one undo takes back at most
    /// `maximumUndoneChanges`, and one request adds up to 64 todos (each with its next
    /// occurrence or subtasks), so a longer command goes on in a new step that undo can take.
    static let maximumJoinedStepChanges = 800

    /// Whether `mutation` may go on step `step`: (the step, nil) when it may; (nil, nil)
    /// when it starts a step of its own instead, because an undo or a redo came since (it
    /// ends the step, as it ends a redo chain: a step taken back or stepped past must not
    /// grow) or the step is as long as it gets; (nil, why) when the step is not one the
    /// mutation's client began, or the mutation is one that is always a step of its own.
    static func joinable(_ step: UInt64, by mutation: TodoMutation, in transaction: TodoTransaction) throws -> (UInt64?, TodoModelError?) {
        switch mutation {
        case .undo, .redo, .replay, .purge:
            return (nil, .invalid(field: "step", reason: "an undo, a redo, a replay or a purge is a step of its own: send it without step"))
        default: break
        }
        let db = transaction.db
        let first = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT step, client, machine IS NOT NULL AS elsewhere, undoes IS NOT NULL OR undoneSteps IS NOT NULL AS isUndo FROM journal WHERE seq = ?"),
            arguments: [Int64(clamping: step)])
        // Another machine's client of the same number began no step of this connection's.
        guard let first, first["step"] as Int64 == Int64(clamping: step), !(first["isUndo"] as Bool), !(first["elsewhere"] as Bool),
              transaction.author.client != 0, first["client"] as Int64 == Int64(transaction.author.client)
        else {
            return (nil, .invalid(
                field: "step",
                reason: "\(step) is not a step this connection began: name the step of this connection's first change of the command (that answer's step, else its seq), or send no step"))
        }
        let undoneSince = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM journal WHERE seq > ? AND (undoes IS NOT NULL OR undoneSteps IS NOT NULL))"),
            arguments: [Int64(step)]) ?? false
        let changes = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM journal WHERE seq >= ? AND step = ?"), arguments: [Int64(step), Int64(step)]) ?? 0
        return (undoneSince || changes >= maximumJoinedStepChanges ? nil : step, nil)
    }

    /// Indexes the undos and redos, which are few, so that a request going on a step finds
    /// at once whether one came since (without reading every change after the step's first).
    static func registerStepMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("journal: undos indexed") { db in
            try db.execute(sql: "CREATE INDEX journal_undos ON journal (seq) WHERE undoes IS NOT NULL OR undoneSteps IS NOT NULL")
        }
    }
}
