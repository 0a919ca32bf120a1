import GRDB
import TodoModel

/// The planning fields' columns (recurrence, parent, wait) and the rules that need other
/// rows: a parent must exist and be a todo of its own.
extension TodoStore {
    /// Adds the planning columns; the parent is indexed, as subtasks are looked up by it.
    /// Registered before the journal's migration, whose table has them from the start; a
    /// journal made before this migration gets them here.
    static func registerPlanningMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("planning: recurrence, parent, wait") { db in
            if try db.tableExists("journal") {
                for column in ["recurrence TEXT", "parent INTEGER", "wait TEXT", "previous INTEGER"] {
                    try db.execute(sql: "ALTER TABLE journal ADD COLUMN \(column)")
                }
            }
            try db.execute(sql: """
                ALTER TABLE todo ADD COLUMN recurrence TEXT;
                ALTER TABLE todo ADD COLUMN parent INTEGER;
                ALTER TABLE todo ADD COLUMN wait TEXT;
                ALTER TABLE todo ADD COLUMN previous INTEGER;
                CREATE INDEX todo_parent ON todo (parent) WHERE parent IS NOT NULL;
                CREATE INDEX todo_previous ON todo (previous) WHERE previous IS NOT NULL;
                """)
        }
    }

    /// Why `mutation` may not give `current` (nil: a new todo) the parent it names, or nil.
    static func subtaskRefusal(_ mutation: TodoMutation, current: Todo?, in db: Database) throws -> TodoModelError? {
        let parentNumber: Int?
        switch mutation {
        case .create(let new): parentNumber = new.parent
        case .edit(_, let edit, _): parentNumber = edit.clearParent ? nil : edit.parent
        default: parentNumber = nil
        }
        guard let parentNumber, parentNumber != current?.parent else { return nil }
        let parent = try TodoRecord.fetch(.number(parentNumber), in: db).first
        let hasSubtasks = try current.map { try !subtasks(of: $0, in: db).isEmpty } ?? false
        do throws(TodoModelError) {
            try SubtaskRule.check(child: current, parentNumber: parentNumber, parent: parent, childHasSubtasks: hasSubtasks)
            return nil
        } catch {
            return error
        }
    }

    /// What else changes with `current` becoming `next`, and the related rows it was
    /// worked out from; or the rule that refuses it. Reads only.
    static func planConsequences(of mutation: TodoMutation, _ current: Todo, becoming next: Todo, in transaction: TodoTransaction)
        throws -> Result<(TodoConsequences, RelatedTodos), TodoModelError>
    {
        // Only a change of state carries other todos along; edits read nothing more.
        guard current.isCompleted != next.isCompleted || current.isDeleted != next.isDeleted else {
            return .success((TodoConsequences(), RelatedTodos()))
        }
        let related = try related(to: current, in: transaction.db)
        do throws(TodoModelError) {
            let today = LocalDate(transaction.now)
            return .success((try mutation.consequences(of: current, becoming: next, related: related, at: transaction.now, today: today), related))
        } catch {
            return .failure(error)
        }
    }

    /// Writes the related todos' changes after the mutation's own, each a change of its own.
    static func write(_ consequences: TodoConsequences, related: RelatedTodos, in transaction: inout TodoTransaction) throws {
        let before = Dictionary((related.subtasks + related.followers + (related.previous.map { [$0] } ?? [])).map { ($0.id, $0) }) { first, _ in first }
        for update in consequences.updates {
            try transaction.write(update, before: before[update.id])
        }
        for (previous, new) in consequences.creations {
            try transaction.write(Todo(new, number: transaction.nextNumber(), createdAt: transaction.now, previous: previous), before: nil)
        }
    }

    /// The todos a change to `todo` may carry along: its subtasks (deleted ones too), its
    /// parent, and the occurrences that repeat it. Only read when it can have any.
    static func related(to todo: Todo, in db: Database) throws -> RelatedTodos {
        let subtasks = try TodoRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM todo WHERE parent = ? ORDER BY number"), arguments: [todo.number]
        ).map(\.todo)
        let parent = try todo.parent.flatMap { try TodoRecord.fetch(.number($0), in: db).first }
        let followers = todo.recurrence == nil ? [] : try TodoRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM todo WHERE previous = ? AND deletedAt IS NULL ORDER BY number"), arguments: [todo.number]
        ).map(\.todo)
        let withSubtasks = try followers.filter { follower in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM todo WHERE parent = ?)"), arguments: [follower.number]) ?? false
        }
        let previous = try todo.previous.flatMap { try TodoRecord.fetch(.number($0), in: db).first }
        return RelatedTodos(subtasks: subtasks, parent: parent, followers: followers, followersWithSubtasks: Set(withSubtasks.map(\.number)),
                            previous: previous)
    }

    /// The live subtasks of `todo`, in number order.
    static func subtasks(of todo: Todo, in db: Database) throws -> [Todo] {
        try TodoRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM todo WHERE parent = ? AND deletedAt IS NULL ORDER BY number"),
            arguments: [todo.number]
        ).map(\.todo)
    }
}
