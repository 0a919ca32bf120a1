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
        screen.totals = TodoTotals(open: 2, done: 4, asOf: 1)
        screen.incorporate(change(todo(1, "one", completed: true, revision: 2), .completed, sequence: 2))
        let header = WatchRenderer(styler: TextStyler(colours: false)).render(screen)[0]
        #expect(header.contains("1 open, 5 done"), "\(header)")
        #expect(screen.list.rows.count == 1)
    }
}
