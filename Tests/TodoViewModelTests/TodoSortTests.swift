import Foundation
import Testing
import TodoModel
import TodoViewModel

@Suite("The order of `todoctl list --sort` and the cut of --limit")
struct TodoSortTests {
    private func todo(
        _ number: Int, _ title: String = "", _ priority: Priority = .normal, due: String? = nil, project: String? = nil,
        parent: Int? = nil, created: Int = 0
    ) -> TodoViewModel {
        TodoViewModel(Todo(
            number: number, title: title.isEmpty ? "t\(number)" : title, priority: priority, due: due.map(day),
            createdAt: at(created), parent: parent, project: project))
    }

    private func order(_ keys: String, _ rows: [TodoViewModel]) throws -> [Int] {
        try TodoSort(keys).sorted(rows).map(\.number)
    }

    @Test("due ascending puts the earliest first and todos without a date last")
    func dueAscending() throws {
        let rows = [todo(1), todo(2, due: "2026-12-03"), todo(3, due: "2026-12-01")]
        let got = try order("due", rows)
        #expect(got == [3, 2, 1])
    }

    @Test("-due puts the latest first and still todos without a date last")
    func dueDescending() throws {
        let rows = [todo(1), todo(2, due: "2026-12-03"), todo(3, due: "2026-12-01")]
        let got = try order("-due", rows)
        #expect(got == [2, 3, 1])
    }

    @Test("a second key orders the todos the first leaves tied, and the number the rest")
    func secondKeyThenNumber() throws {
        let rows = [
            todo(1, due: "2026-12-01"), todo(2, "", .high, due: "2026-12-01"), todo(3, "", .low, due: "2026-11-30"),
            todo(4, due: "2026-12-01"),
        ]
        let got = try order("due,-priority", rows)
        #expect(got == [3, 2, 1, 4])
    }

    @Test("title ignores case; project sorts by name with todos of no project last; created and updated by time")
    func otherKeys() throws {
        let byTitle = try order("title", [todo(1, "banana"), todo(2, "Apple"), todo(3, "cherry")])
        #expect(byTitle == [2, 1, 3])
        let byProject = try order("project", [todo(1), todo(2, project: "work"), todo(3, project: "home.garden"), todo(4, project: "home")])
        #expect(byProject == [4, 3, 2, 1])
        let byCreated = try order("-created", [todo(1, created: 5), todo(2, created: 9), todo(3, created: 1)])
        #expect(byCreated == [2, 1, 3])
        let byNumber = try order("-number", [todo(1), todo(3), todo(2)])
        #expect(byNumber == [3, 2, 1])
    }

    @Test("an unknown key is refused with the keys there are")
    func unknownKey() {
        #expect {
            try TodoSort("due,prio")
        } throws: { error in
            let text = (error as? TodoSort.UnknownKey)?.description ?? ""
            return text.contains("unknown sort key 'prio'") && text.contains("number, due, priority, title, created, updated, project")
        }
        #expect(throws: TodoSort.UnknownKey.self) { try TodoSort("due,") }
    }

    @Test("a key named twice is refused, as a column named twice is, whichever its direction", arguments: ["due,due", "due,-due", "priority,title,Priority"])
    func keyNamedTwice(_ keys: String) {
        #expect {
            try TodoSort(keys)
        } throws: { error in
            (error as? TodoSort.UnknownKey)?.description.contains("named twice in --sort '\(keys)'") == true
        }
    }

    @Test("a sorted outline sorts the parents and keeps each parent's subtasks under it, sorted by the same keys")
    func outlineKeepsSubtasksUnderParents() throws {
        let rows = [
            todo(1, "parent b", due: "2026-12-05"), todo(2, "child late", due: "2026-12-09", parent: 1),
            todo(3, "child early", due: "2026-12-02", parent: 1), todo(4, "alone", due: "2026-12-03"),
        ]
        let list = TodoViewModelList(filter: TodoFilter(), todos: rows, asOf: 0)
        let outline = TodoOutline(list, order: try TodoSort("due"))
        let got = outline.entries.map { "\($0.depth):\($0.row.number)" }
        #expect(got == ["0:4", "0:1", "1:3", "1:2"])
    }

    @Test("--limit keeps the first N listed todos and counts the rest")
    func limit() throws {
        let rows = (1...5).map { todo($0) }
        let list = TodoViewModelList(filter: TodoFilter(), todos: rows, asOf: 0)
        let (outline, more) = TodoOutline(list, order: try TodoSort("-number")).limited(to: 2)
        let got = outline.entries.map(\.row.number)
        #expect(got == [5, 4])
        #expect(more == 3)
    }

    @Test("a key by Taskwarrior's name (description) or mistyped (priorty) is refused with the key meant (outside probe)")
    func meantKeys() {
        #expect {
            try TodoSort("-description")
        } throws: { error in
            let text = (error as? TodoSort.UnknownKey)?.description ?? ""
            return text.hasPrefix("unknown sort key 'description' in --sort '-description'; did you mean title? (Taskwarrior's description is todoctl's title) the keys are")
        }
        #expect {
            try TodoSort("due,priorty")
        } throws: { error in
            ((error as? TodoSort.UnknownKey)?.description ?? "").contains("; did you mean priority? the keys are")
        }
    }

    @Test("a key or a column begun with 3 or more letters (pri, proj, crea) is refused with the one it begins; one that begins two (pr) gets no guess (outside probe: --sort due,-pri had no hint)")
    func abbreviatedKeys() {
        for (typed, meant) in [("-pri", "priority"), ("proj", "project"), ("crea", "created")] {
            #expect {
                try TodoSort("due,\(typed)")
            } throws: { error in
                ((error as? TodoSort.UnknownKey)?.description ?? "").contains("; did you mean \(meant)? the keys are")
            }
            #expect {
                try TodoColumn.parse("number,\(typed.trimmingPrefix("-"))")
            } throws: { error in
                ((error as? TodoColumn.UnknownColumn)?.description ?? "").contains("; did you mean \(meant)? the columns are")
            }
        }
        #expect {
            try TodoSort("pr")
        } throws: { error in
            !((error as? TodoSort.UnknownKey)?.description ?? "").contains("did you mean")
        }
    }
}
