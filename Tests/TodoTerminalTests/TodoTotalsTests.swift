import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

@Suite("TodoTotals")
struct TodoTotalsTests {
    @Test("each kind of change moves the open and done counts as the database would")
    func countsEachKind() {
        var totals = TodoTotals(open: 2, done: 1, asOf: 10)
        totals.count(change(todo(3, "new"), .created, sequence: 11))
        #expect((totals.open, totals.done) == (3, 1))
        totals.count(change(todo(3, "new", completed: true), .completed, sequence: 12))
        #expect((totals.open, totals.done) == (2, 2))
        totals.count(change(todo(3, "new"), .reopened, sequence: 13))
        #expect((totals.open, totals.done) == (3, 1))
        totals.count(change(todo(3, "new", completed: true), .deleted, sequence: 14))
        #expect((totals.open, totals.done) == (3, 0))
        totals.count(change(todo(3, "new", completed: true), .restored, sequence: 15))
        #expect((totals.open, totals.done) == (3, 1))
        totals.count(change(todo(1, "open one"), .deleted, sequence: 16))
        #expect((totals.open, totals.done) == (2, 1))
        totals.count(change(todo(1, "open one", revision: 3), .updated, sequence: 17))
        #expect((totals.open, totals.done) == (2, 1))
        #expect(totals.asOf == 17)
    }

    @Test("a change the counts already include is not counted again")
    func countsOnce() {
        var totals = TodoTotals(open: 1, done: 0, asOf: 5)
        totals.count(change(todo(1, "old"), .created, sequence: 5))
        totals.count(change(todo(2, "older"), .created, sequence: 3))
        #expect(totals == TodoTotals(open: 1, done: 0, asOf: 5))
        let created = change(todo(3, "new"), .created, sequence: 6)
        totals.count(created)
        totals.count(created)
        #expect(totals == TodoTotals(open: 2, done: 0, asOf: 6))
    }

    @Test("the header shows the whole database's counts, not the open list's")
    func headerShowsTotals() {
        var screen = WatchScreen(rows: 6, columns: 80)
        screen.incorporate(list([todo(1, "one"), todo(2, "two")]))
        screen.totals.answer(TodoTotals(open: 2, done: 4, asOf: 1), to: screen.totals.ask())
        let completed = change(todo(1, "one", completed: true, revision: 2), .completed, sequence: 2)
        screen.totals.count(completed)
        screen.incorporate(completed)
        let header = WatchRenderer(styler: TextStyler(colours: false)).render(screen)[0]
        #expect(header.contains("1 open, 5 done"), "\(header)")
        #expect(screen.list.rows.count == 1)
    }
}

@Suite("TotalsTracker")
struct TotalsTrackerTests {
    private let created2 = change(todo(2, "two"), .created, sequence: 2)
    private let created3 = change(todo(3, "three"), .created, sequence: 3)

    @Test("a change seen before the answer but made after it is counted on top of it; one the answer includes is not")
    func changesWhileAsking() {
        var tracker = TotalsTracker()
        let question = tracker.ask()
        tracker.count(created2)
        tracker.count(created3)
        // The daemon counted up to change 2 when it answered.
        tracker.answer(TodoTotals(open: 2, done: 0, asOf: 2), to: question)
        #expect(tracker.current == TodoTotals(open: 3, done: 0, asOf: 3))
        // Changes after the answer are counted as they come.
        tracker.count(change(todo(3, "three", completed: true, revision: 2), .completed, sequence: 4))
        #expect(tracker.current == TodoTotals(open: 2, done: 1, asOf: 4))
    }

    @Test("the answer to an older question (a lost connection's) changes nothing")
    func staleAnswerIgnored() {
        var tracker = TotalsTracker()
        let old = tracker.ask()
        let new = tracker.ask()
        tracker.count(created2)
        tracker.answer(TodoTotals(open: 7, done: 7, asOf: 1), to: old)
        #expect(tracker.current == nil)
        tracker.answer(TodoTotals(open: 1, done: 0, asOf: 1), to: new)
        #expect(tracker.current == TodoTotals(open: 2, done: 0, asOf: 2))
        // A late answer to the old question, after the new one: still nothing.
        tracker.answer(TodoTotals(open: 7, done: 7, asOf: 9), to: old)
        #expect(tracker.current == TodoTotals(open: 2, done: 0, asOf: 2))
    }

    @Test("a failed question keeps the totals counting; only the failure of the latest question ends it")
    func failures() {
        var tracker = TotalsTracker()
        tracker.answer(TodoTotals(open: 1, done: 0, asOf: 1), to: tracker.ask())
        let old = tracker.ask()
        let new = tracker.ask()
        tracker.failed(old)  // stale: the new question still waits
        tracker.count(created2)
        tracker.answer(TodoTotals(open: 2, done: 0, asOf: 2), to: new)
        #expect(tracker.current == TodoTotals(open: 2, done: 0, asOf: 2))
        let lost = tracker.ask()
        tracker.failed(lost)
        tracker.count(created3)
        tracker.answer(TodoTotals(open: 9, done: 9, asOf: 9), to: lost)  // after its failure: ignored
        #expect(tracker.current == TodoTotals(open: 3, done: 0, asOf: 3))
    }
}
