import Foundation
import Testing
import TodoModel

@Suite("TodoMutation")
struct TodoMutationTests {
    let now = at(60)
    let open = Todo(number: 1, title: "Buy milk", tags: ["home"], createdAt: at(0), revision: 3)
    var completed: Todo { Todo(id: open.id, number: 1, title: "Buy milk", tags: ["home"], createdAt: at(0), updatedAt: at(5), completedAt: at(5), revision: 4) }
    var deleted: Todo { Todo(id: open.id, number: 1, title: "Buy milk", tags: ["home"], createdAt: at(0), updatedAt: at(5), deletedAt: at(5), revision: 4) }

    /// The mutation applied, checking what every real change must do.
    private func apply(_ mutation: TodoMutation, to todo: Todo, sourceLocation: SourceLocation = #_sourceLocation) throws -> Todo {
        let next = try #require(try mutation.applied(to: todo, at: now), sourceLocation: sourceLocation)
        #expect(next.revision == todo.revision + 1, sourceLocation: sourceLocation)
        #expect(next.updatedAt == now, sourceLocation: sourceLocation)
        #expect(next.id == todo.id && next.number == todo.number && next.createdAt == todo.createdAt, sourceLocation: sourceLocation)
        return next
    }

    @Test("complete sets completedAt; completing a completed todo changes nothing")
    func complete() throws {
        let next = try apply(.complete(.number(1)), to: open)
        #expect(next.completedAt == now)
        #expect(next.isCompleted)
        #expect(try TodoMutation.complete(.number(1)).applied(to: completed, at: now) == nil)
    }

    @Test("reopen clears completedAt; reopening an open todo changes nothing")
    func reopen() throws {
        let next = try apply(.reopen(.number(1)), to: completed)
        #expect(next.completedAt == nil)
        #expect(try TodoMutation.reopen(.number(1)).applied(to: open, at: now) == nil)
    }

    @Test("toggle completes an open todo and reopens a completed one")
    func toggle() throws {
        let done = try apply(.toggleComplete(.number(1)), to: open)
        #expect(done.completedAt == now)
        let reopened = try apply(.toggleComplete(.number(1)), to: done)
        #expect(reopened.completedAt == nil)
        #expect(reopened.revision == open.revision + 2)
    }

    @Test("delete sets deletedAt, also on a completed todo; deleting twice changes nothing")
    func delete() throws {
        #expect(try apply(.delete(.number(1)), to: open).deletedAt == now)
        let deletedCompleted = try apply(.delete(.number(1)), to: completed)
        #expect(deletedCompleted.deletedAt == now && deletedCompleted.completedAt == completed.completedAt)
        #expect(try TodoMutation.delete(.number(1)).applied(to: deleted, at: now) == nil)
    }

    @Test("restore clears deletedAt; restoring a live todo changes nothing")
    func restore() throws {
        #expect(try apply(.restore(.number(1)), to: deleted).deletedAt == nil)
        #expect(try TodoMutation.restore(.number(1)).applied(to: open, at: now) == nil)
    }

    @Test("edit changes only the given fields")
    func edit() throws {
        let edit = TodoEdit(title: "Buy oat milk", priority: .high, due: day("2026-12-01"), addTags: ["shop"])
        let next = try apply(.edit(.number(1), edit, expectedRevision: 3), to: open)
        #expect(next.title == "Buy oat milk")
        #expect(next.priority == .high)
        #expect(next.due == day("2026-12-01"))
        #expect(next.tags == ["home", "shop"])
        #expect(next.notes == open.notes)
        #expect(next.completedAt == nil)
        // Without an expected revision the edit applies to whatever is current.
        #expect(try apply(.edit(.number(1), TodoEdit(notes: "n"), expectedRevision: nil), to: open).notes == "n")
    }

    @Test("an edit that changes nothing returns nil")
    func noOpEdit() throws {
        #expect(try TodoMutation.edit(.number(1), TodoEdit(), expectedRevision: 3).applied(to: open, at: now) == nil)
        #expect(try TodoMutation.edit(.number(1), TodoEdit(title: "Buy milk", addTags: ["home"]), expectedRevision: nil)
            .applied(to: open, at: now) == nil)
    }

    @Test("an edit based on a stale revision is a conflict carrying the current todo")
    func staleRevision() {
        #expect(throws: TodoModelError.conflict(current: open)) {
            try TodoMutation.edit(.number(1), TodoEdit(title: "x"), expectedRevision: 2).applied(to: open, at: now)
        }
        #expect(throws: TodoModelError.conflict(current: open)) {
            try TodoMutation.edit(.number(1), TodoEdit(title: "x"), expectedRevision: 4).applied(to: open, at: now)
        }
    }

    @Test("a deleted todo cannot be edited, completed, reopened or toggled")
    func deletedRefuses() {
        for mutation: TodoMutation in [
            .edit(.number(1), TodoEdit(title: "x"), expectedRevision: 4), .edit(.number(1), TodoEdit(title: "x"), expectedRevision: nil),
            .complete(.number(1)), .reopen(.number(1)), .toggleComplete(.number(1)),
        ] {
            #expect(throws: TodoModelError.deleted(deleted)) { try mutation.applied(to: deleted, at: now) }
        }
    }

    @Test("create applies to no existing todo; every other mutation names its target")
    func targets() throws {
        #expect(try TodoMutation.create(NewTodo(title: "x")).applied(to: open, at: now) == nil)
        #expect(TodoMutation.create(NewTodo(title: "x")).target == nil)
        #expect(TodoMutation.complete(.number(2)).target == .number(2))
        #expect(TodoMutation.edit(.idPrefix("deadbeef"), TodoEdit(), expectedRevision: 1).target == .idPrefix("deadbeef"))
    }

    @Test("mutations round trip through JSON")
    func mutationCoding() throws {
        let mutations: [TodoMutation] = [
            .create(NewTodo(title: "a", notes: "n", priority: .low, due: day("2026-01-02"), tags: ["t"])),
            .complete(.number(1)), .reopen(.id(UUID())), .toggleComplete(.idPrefix("abcdef12")), .delete(.number(2)),
            .restore(.number(3)), .edit(.number(4), TodoEdit(title: "t", clearDue: true, removeTags: ["x"]), expectedRevision: 7),
        ]
        let decoded = try JSONDecoder().decode([TodoMutation].self, from: try JSONEncoder().encode(mutations))
        #expect(decoded == mutations)
    }
}

@Suite("TodoEdit")
struct TodoEditTests {
    let todo = Todo(number: 1, title: "t", due: day("2026-05-05"), tags: ["a", "b"], createdAt: at(0))

    @Test("adds tags without repeating them, removes tags")
    func addAndRemoveTags() {
        #expect(TodoEdit(addTags: ["c", "a"]).applied(to: todo).tags == ["a", "b", "c"])
        #expect(TodoEdit(removeTags: ["a", "zzz"]).applied(to: todo).tags == ["b"])
        #expect(TodoEdit(addTags: ["c"], removeTags: ["b"]).applied(to: todo).tags == ["a", "c"])
    }

    @Test("replacing the tags happens before adding and removing")
    func replaceTags() {
        #expect(TodoEdit(tags: ["x", "y"]).applied(to: todo).tags == ["x", "y"])
        #expect(TodoEdit(tags: ["x", "y"], addTags: ["a"], removeTags: ["y"]).applied(to: todo).tags == ["x", "a"])
        #expect(TodoEdit(tags: []).applied(to: todo).tags == [])
    }

    @Test("clearDue wins over due; an absent field is left alone")
    func dueEdits() {
        #expect(TodoEdit(due: day("2026-06-06"), clearDue: true).applied(to: todo).due == nil)
        #expect(TodoEdit(due: day("2026-06-06")).applied(to: todo).due == day("2026-06-06"))
        #expect(TodoEdit(title: "u").applied(to: todo).due == day("2026-05-05"))
        #expect(TodoEdit().applied(to: todo) == todo)
    }

    @Test("an edit decoded from {} is the empty edit")
    func decodesDefaults() throws {
        #expect(try JSONDecoder().decode(TodoEdit.self, from: Data("{}".utf8)) == TodoEdit())
        let edit = TodoEdit(priority: .low, addTags: ["q"])
        #expect(try JSONDecoder().decode(TodoEdit.self, from: try JSONEncoder().encode(edit)) == edit)
    }
}

@Suite("NewTodo")
struct NewTodoTests {
    @Test("a new todo decoded from just a title takes the defaults (as the wire protocol example sends it)")
    func decodesFromTitleOnly() throws {
        let decoded = try JSONDecoder().decode(NewTodo.self, from: Data(#"{"title":"Buy milk"}"#.utf8))
        #expect(decoded == NewTodo(title: "Buy milk"))
    }

    @Test("round trips through JSON")
    func roundTrip() throws {
        let new = NewTodo(title: "a", notes: "b", priority: .high, due: day("2027-01-01"), tags: ["c"])
        #expect(try JSONDecoder().decode(NewTodo.self, from: try JSONEncoder().encode(new)) == new)
    }
}

@Suite("An imported todo over todod's")
struct ImportedTodoTests {
    static let then = Date(millisecondsSince1970: 1_780_000_000_000)
    static let current = Todo(number: 4, title: "mine", createdAt: then, revision: 3)

    static func imported(_ title: String, updatedAt: Date, completedAt: Date? = nil) -> ImportedTodo {
        ImportedTodo(id: current.id, title: title, createdAt: then.addingTimeInterval(-999), updatedAt: updatedAt, completedAt: completedAt)
    }

    @Test("A newer import replaces the fields, keeps number and creation time, advances the revision, takes the source's time")
    func newer() throws {
        let later = Self.then.addingTimeInterval(60)
        let next = try #require(try TodoMutation.importTodo(Self.imported("theirs", updatedAt: later)).applied(to: Self.current, at: Date()))
        #expect(next.title == "theirs")
        #expect(next.number == 4)
        #expect(next.createdAt == Self.then)
        #expect(next.revision == 4)
        #expect(next.updatedAt == later)
    }

    @Test("An older import, or one that says what todod's already says, changes nothing")
    func olderOrSame() throws {
        #expect(try TodoMutation.importTodo(Self.imported("theirs", updatedAt: Self.then.addingTimeInterval(-1))).applied(to: Self.current, at: Date()) == nil)
        #expect(try TodoMutation.importTodo(Self.imported("mine", updatedAt: Self.then.addingTimeInterval(60))).applied(to: Self.current, at: Date()) == nil)
    }

    @Test("A completion dated by its day alone is todod's own completion on that day")
    func completionDay() throws {
        var done = Self.current
        done.completedAt = Self.then.addingTimeInterval(3_600)
        let sameDay = Self.imported("mine", updatedAt: Self.then.addingTimeInterval(7_200), completedAt: Self.then)
        #expect(try TodoMutation.importTodo(sameDay).applied(to: done, at: Date()) == nil)
    }
    @Test("An import replaces its own format's fields and keeps the other formats': a todo.txt round trip keeps a Taskwarrior series (outside probe: it dropped taskwarrior and taskwarrior.series); todod's own JSON, with no source, replaces them all")
    func foreignByFormat() throws {
        var kept = Self.current
        kept.foreign = ["taskwarrior": "{\"imask\":1}", "taskwarrior.series": "{}", "todotxt": "old:1"]
        var fromTodoTxt = Self.imported("mine", updatedAt: Self.then.addingTimeInterval(60))
        fromTodoTxt.source = "todotxt"
        fromTodoTxt.foreign = [:]
        let afterTodoTxt = try #require(try TodoMutation.importTodo(fromTodoTxt).applied(to: kept, at: Date()))
        #expect(afterTodoTxt.foreign == ["taskwarrior": "{\"imask\":1}", "taskwarrior.series": "{}"])
        var fromTaskwarrior = fromTodoTxt
        fromTaskwarrior.source = "taskwarrior"
        fromTaskwarrior.foreign = ["taskwarrior": "{}"]
        let afterTaskwarrior = try #require(try TodoMutation.importTodo(fromTaskwarrior).applied(to: kept, at: Date()))
        #expect(afterTaskwarrior.foreign == ["taskwarrior": "{}", "todotxt": "old:1"])
        var fromJSON = fromTodoTxt
        fromJSON.source = nil
        let afterJSON = try #require(try TodoMutation.importTodo(fromJSON).applied(to: kept, at: Date()))
        #expect(afterJSON.foreign == [:])
    }
}
