import Foundation
import Testing
import TodoModel
import TodoViewModel

/// The time spent, summed from a history's starts and stops.
@Suite("Time spent")
struct TimeSpentTests {
    static let base = Date(timeIntervalSince1970: 1_780_000_000)

    /// A history of one todo whose `started` takes each value in turn, a minute apart per step,
    /// each change an undo when marked.
    static func history(_ steps: [(minute: Double, started: Double?, undo: Bool)]) -> [JournaledChange] {
        var todo = Todo(number: 1, title: "Write the report", createdAt: base)
        return steps.enumerated().map { index, step in
            let before = index == 0 ? nil : todo
            todo.started = step.started.map { base.addingTimeInterval($0 * 60) }
            let entry = JournalEntry(
                seq: UInt64(index + 1), step: UInt64(index + 1), at: base.addingTimeInterval(step.minute * 60),
                author: ChangeAuthor(client: 1, program: "todoctl"), kind: index == 0 ? .created : .updated, before: before, after: todo,
                undoes: step.undo ? UInt64(index) : nil)
            return JournaledChange(entry, withBefore: true)
        }
    }

    @Test("each start counts until its stop, the running one until now")
    func startsAndStops() {
        let history = Self.history([(0, nil, false), (10, 10, false), (40, nil, false), (50, 50, false)])
        #expect(TimeSpent.seconds(in: history, now: Self.base.addingTimeInterval(60 * 60)) == 40 * 60)
    }

    @Test("an undone start counts nothing; an undone stop carries its start on")
    func undo() {
        let undoneStart = Self.history([(0, nil, false), (10, 10, false), (20, nil, true)])
        #expect(TimeSpent.seconds(in: undoneStart, now: Self.base.addingTimeInterval(60 * 60)) == 0)
        let undoneStop = Self.history([(0, nil, false), (10, 10, false), (20, nil, false), (30, 10, true)])
        #expect(TimeSpent.seconds(in: undoneStop, now: Self.base.addingTimeInterval(60 * 60)) == 50 * 60)
    }
}
