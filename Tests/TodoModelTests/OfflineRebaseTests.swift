import Foundation
import Testing
import TodoModel

/// A change made while the shared store was away, made again on the store's todo, field by field.
@Suite("Offline changes rebased")
struct OfflineRebaseTests {
    static let t0 = Date(millisecondsSince1970: 1_780_000_000_000)
    static let base = Todo(number: 1, title: "Call plumber", notes: "boiler", createdAt: t0, revision: 3)

    /// `base` with `edit` made, one revision on, at `minutes` past t0.
    static func edited(_ todo: Todo = base, minutes: Double, _ edit: (inout Todo) -> Void) -> Todo {
        var todo = todo
        edit(&todo)
        todo.revision += 1
        todo.updatedAt = t0.addingTimeInterval(minutes * 60)
        return todo
    }

    @Test("a field only this machine changed takes its value; the store's other fields stay; the revision follows the store's")
    func otherFieldsMerge() {
        let local = Self.edited(minutes: 1) { $0.title = "Call the plumber" }
        let theirs = Self.edited(minutes: 2) { $0.priority = .high }
        let outcome = OfflineRebase.rebase(before: Self.base, after: local, onto: theirs)
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.todo?.title == "Call the plumber")
        #expect(outcome.todo?.priority == .high)
        #expect(outcome.todo?.revision == theirs.revision + 1)
    }

    @Test("a field changed on both sides keeps the store's value and is a conflict; nothing left to change writes nothing")
    func sameFieldConflicts() {
        let local = Self.edited(minutes: 1) { $0.title = "here" }
        let theirs = Self.edited(minutes: 2) { $0.title = "there" }
        let outcome = OfflineRebase.rebase(before: Self.base, after: local, onto: theirs)
        #expect(outcome.conflicts == [.title])
        #expect(outcome.todo == nil)
    }

    @Test("the same value on both sides is no conflict")
    func sameValueAgrees() {
        let local = Self.edited(minutes: 1) { $0.notes = "boiler, Tuesday" }
        let theirs = Self.edited(minutes: 2) { $0.notes = "boiler, Tuesday" }
        let outcome = OfflineRebase.rebase(before: Self.base, after: local, onto: theirs)
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.todo == nil)
    }

    @Test("completed, or deleted, on both sides at different times agree: the store's time stays")
    func bothCompletedAgree() {
        for field in [TodoField.completedAt, .deletedAt] {
            let local = Self.edited(minutes: 1) { field == .completedAt ? ($0.completedAt = Self.t0) : ($0.deletedAt = Self.t0) }
            let later = Self.t0.addingTimeInterval(300)
            let theirs = Self.edited(minutes: 5) { field == .completedAt ? ($0.completedAt = later) : ($0.deletedAt = later) }
            let outcome = OfflineRebase.rebase(before: Self.base, after: local, onto: theirs)
            #expect(outcome.conflicts.isEmpty, "\(field)")
            #expect(outcome.todo == nil, "\(field)")
        }
    }

    @Test("started on both sides at different times agree, as completed does: no conflict, the store's start stays (it was a conflict, and taking it later started a todo stopped since; outside probe 11, F11)")
    func bothStartedAgree() {
        let local = Self.edited(minutes: 1) { $0.started = Self.t0 }
        let theirs = Self.edited(minutes: 2) { $0.started = Self.t0.addingTimeInterval(4) }
        let outcome = OfflineRebase.rebase(before: Self.base, after: local, onto: theirs)
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.todo == nil)
    }

    @Test("an edit here of a todo deleted there: it stays deleted, with the edit")
    func editOfADeletedTodo() {
        let local = Self.edited(minutes: 1) { $0.notes = "ask for Tuesday" }
        let theirs = Self.edited(minutes: 2) { $0.deletedAt = Self.t0 }
        let outcome = OfflineRebase.rebase(before: Self.base, after: local, onto: theirs)
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.todo?.isDeleted == true)
        #expect(outcome.todo?.notes == "ask for Tuesday")
    }
}

extension OfflineRebaseTests {
    @Test("tags and annotations added or taken away on both sides are all kept, as on one machine: no conflict (outside probe O8)")
    func setsMerge() {
        let note = Annotation(entry: Self.t0, description: "called the plumber")
        let start = Self.edited(minutes: 0) { $0.tags = ["home", "old"] }
        let local = Self.edited(start, minutes: 1) {
            $0.tags = ["home", "fromA"]
            $0.annotations = [note]
        }
        let theirsNote = Annotation(entry: Self.t0.addingTimeInterval(60), description: "bought pipes")
        let theirs = Self.edited(start, minutes: 2) {
            $0.tags = ["home", "old", "fromB"]
            $0.annotations = [theirsNote]
        }
        let outcome = OfflineRebase.rebase(before: start, after: local, onto: theirs)
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.todo?.tags == ["home", "fromB", "fromA"])
        #expect(outcome.todo?.annotations == [theirsNote, note])
    }
}

extension OfflineRebaseTests {
    @Test("annotations added on both sides past the most a todo may hold are a conflict, the store's kept: the todo stays one an import takes (outside probe P7-17)")
    func annotationsPastTheMostAreAConflict() {
        func notes(_ prefix: String, from minute: Int) -> [Annotation] {
            (0..<55).map { Annotation(entry: Self.t0.addingTimeInterval(Double(minute * 60 + $0)), description: "\(prefix) \($0)") }
        }
        let local = Self.edited(minutes: 1) { $0.annotations = notes("here", from: 1) }
        let theirs = Self.edited(minutes: 2) { $0.annotations = notes("there", from: 2) }
        let outcome = OfflineRebase.rebase(before: Self.base, after: local, onto: theirs)
        #expect(outcome.conflicts == [.annotations])
        #expect(outcome.todo == nil)
        // Within the most, both sides' are kept, as before.
        let few = OfflineRebase.rebase(before: Self.base, after: Self.edited(minutes: 1) { $0.annotations = Array(notes("here", from: 1).prefix(45)) },
                                       onto: theirs)
        #expect(few.conflicts.isEmpty)
        #expect(few.todo?.annotations.count == 100)
    }
}

extension OfflineRebaseTests {
    @Test("a due date taken away here while the store gave the todo a repeat from it is a conflict, the store's due kept: no repeat without its due date (outside probe P7-15)")
    func noRepeatWithoutItsDueDate() throws {
        let due = try #require(LocalDate("2026-12-09"))
        let start = Self.edited(minutes: 0) { $0.due = due }
        let local = Self.edited(start, minutes: 1) { $0.due = nil }
        let theirs = Self.edited(start, minutes: 2) { $0.recurrence = Recurrence(count: 1, unit: .month) }
        let outcome = OfflineRebase.rebase(before: start, after: local, onto: theirs)
        #expect(outcome.conflicts == [.due])
        #expect(outcome.todo == nil)
        // Taking the due date away from a todo that does not repeat is no conflict.
        let plain = OfflineRebase.rebase(before: start, after: local, onto: Self.edited(start, minutes: 2) { $0.notes = "call first" })
        #expect(plain.conflicts.isEmpty && plain.todo?.due == nil)
    }
}
