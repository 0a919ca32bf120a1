import Foundation
import Testing
import TodoModel

/// Which steps undo and redo take, worked out from steps alone.
@Suite("Undo walk")
struct UndoWalkTests {
    static let t0 = Date(millisecondsSince1970: 1_780_000_000_000)

    /// A change (no steps taken back), an undo of `undoing`, or a redo of `redoing`.
    static func change(_ step: UInt64) -> UndoWalk.Step { UndoWalk.Step(step: step, at: t0.addingTimeInterval(Double(step))) }
    static func undo(_ step: UInt64, of undone: UInt64...) -> UndoWalk.Step {
        UndoWalk.Step(step: step, at: t0.addingTimeInterval(Double(step)), undoneSteps: undone)
    }
    static func redo(_ step: UInt64, of undo: UInt64) -> UndoWalk.Step {
        UndoWalk.Step(step: step, at: t0.addingTimeInterval(Double(step)), undoneSteps: [undo], isRedo: true)
    }

    /// `steps`, oldest first, handed out newest first.
    static func newestFirst(_ steps: [UndoWalk.Step]) -> () -> UndoWalk.Step? {
        var iterator = steps.reversed().makeIterator()
        return { iterator.next() }
    }

    /// The step plain undo takes back from `steps` (oldest first, the last of them the last change).
    static func target(_ steps: [UndoWalk.Step]) -> UInt64? {
        guard case .change(let step) = UndoWalk.undoTarget(lastPurge: 0, newestFirst(steps)) else { return nil }
        return step.step
    }

    @Test("undo does not step back past a purge (its change number recorded), however many changes come after it; a number no row holds is no purge by itself")
    func undoStopsAtPurge() {
        // Change 2 was a purge.
        let journal = [Self.change(1), Self.change(3)]
        #expect(UndoWalk.undoTarget(lastPurge: 2, Self.newestFirst(journal)) == .change(Self.change(3)))
        let afterUndo = journal + [Self.undo(4, of: 3)]
        #expect(UndoWalk.undoTarget(lastPurge: 2, Self.newestFirst(afterUndo)) == .purged)
        // The purge itself the last change.
        #expect(UndoWalk.undoTarget(lastPurge: 4, Self.newestFirst([Self.change(1), Self.change(2), Self.change(3)])) == .purged)
        #expect(UndoWalk.undoTarget(lastPurge: 0, Self.newestFirst([Self.change(1), Self.undo(2, of: 1)])) == .none)
        // Every todo purged: the journal holds nothing, though changes were made.
        #expect(UndoWalk.undoTarget(lastPurge: 3, Self.newestFirst([])) == .purged)
        #expect(UndoWalk.undoTarget(lastPurge: 0, Self.newestFirst([])) == .none)
        // Number 2 left unused by sharing changes kept offline (they follow the numbers every
        // client saw): no purge, and undo steps past it (outside probe O4).
        #expect(UndoWalk.undoTarget(lastPurge: 0, Self.newestFirst(afterUndo)) == .change(Self.change(1)))
    }

    @Test("undo steps past undos and the changes they took back")
    func undoStepsBack() {
        let journal = [Self.change(1), Self.change(2), Self.change(3), Self.undo(4, of: 3)]
        #expect(Self.target(journal) == 2)
        #expect(Self.target(journal + [Self.undo(5, of: 2), Self.undo(6, of: 1)]) == nil)
    }

    @Test("after a redo, undo takes the redone change back again")
    func undoAfterRedo() {
        let journal = [Self.change(1), Self.change(2), Self.undo(3, of: 2), Self.redo(4, of: 3)]
        #expect(Self.target(journal) == 2)
    }

    @Test("redo takes back the undos newest first, then says all are redone")
    func redoInReverse() {
        var journal = [Self.change(1), Self.change(2), Self.undo(3, of: 2), Self.undo(4, of: 1)]
        #expect(UndoWalk.redoTarget(Self.newestFirst(journal)) == .undo(Self.undo(4, of: 1)))
        journal.append(Self.redo(5, of: 4))
        #expect(UndoWalk.redoTarget(Self.newestFirst(journal)) == .undo(Self.undo(3, of: 2)))
        journal.append(Self.redo(6, of: 3))
        #expect(UndoWalk.redoTarget(Self.newestFirst(journal)) == .allRedone)
    }

    @Test("a change after an undo ends the redo chain; an empty journal has nothing to redo")
    func newChangeEndsRedo() {
        let journal = [Self.change(1), Self.undo(2, of: 1), Self.change(3)]
        #expect(UndoWalk.redoTarget(Self.newestFirst(journal)) == .endedBy(Self.change(3)))
        #expect(UndoWalk.redoTarget(Self.newestFirst([])) == .noUndo)
    }

    @Test("a change taken back is named with the step in effect that took it back")
    func takenBack() {
        let journal = [Self.change(1), Self.undo(2, of: 1), Self.redo(3, of: 2), Self.undo(4, of: 1)]
        #expect(UndoWalk.takenBack(1, Self.newestFirst(journal)) == 4)
        #expect(UndoWalk.takenBack(2, Self.newestFirst(journal)) == 3)
        #expect(UndoWalk.takenBack(1, Self.newestFirst(Array(journal.prefix(3)))) == nil)
    }

    @Test("a step that went on around another client's change is undone first, by its newest change, then that change; a purge between its rows stops undo")
    func stepAroundAnotherChange() {
        // Changes 1 and 3 are one step (a command of two requests); change 2 came between them.
        let command = UndoWalk.Step(step: 1, at: Self.t0.addingTimeInterval(3), seqs: 1...3)
        let journal = [Self.change(2), command]
        #expect(UndoWalk.undoTarget(lastPurge: 0, Self.newestFirst(journal)) == .change(command))
        let undone = journal + [Self.undo(4, of: 1)]
        #expect(UndoWalk.undoTarget(lastPurge: 0, Self.newestFirst(undone)) == .change(Self.change(2)))
        #expect(UndoWalk.takenBack(1, Self.newestFirst(undone)) == 4)
        #expect(UndoWalk.takenBack(2, Self.newestFirst(undone)) == nil)
        // Change 2 purged since (at change 4): the command's rows have a gap no row holds.
        var gapped = command
        gapped.whole = false
        #expect(UndoWalk.undoTarget(lastPurge: 4, Self.newestFirst([gapped])) == .purged)
    }

    @Test("--since takes the changes in effect since then, up to the last one listed")
    func since() {
        let journal = [Self.change(1), Self.change(2), Self.change(3), Self.undo(4, of: 3), Self.change(5), Self.change(6)]
        let found = UndoWalk.changes(since: Self.t0.addingTimeInterval(2), from: 2, through: 5, Self.newestFirst(journal))
        #expect(found.steps.map(\.step) == [5, 2])
        #expect(!found.stoppedAtPurge)
    }

    @Test("--since stops at a purge as undo does: it takes back only the changes made after it")
    func sinceStopsAtPurge() {
        // Change 3 was a purge; changes 1 and 2 are before it, 4 and 5 after.
        let journal = [Self.change(1), Self.change(2), Self.change(4), Self.change(5)]
        let found = UndoWalk.changes(since: Self.t0, from: 1, through: nil, lastPurge: 3, Self.newestFirst(journal))
        #expect(found.steps.map(\.step) == [5, 4])
        #expect(found.stoppedAtPurge)
        let none = UndoWalk.changes(since: Self.t0, from: 1, through: nil, lastPurge: 3, Self.newestFirst([Self.change(1), Self.change(2)]))
        #expect(none.steps.isEmpty && none.stoppedAtPurge)
    }

    @Test("--since goes by the changes' time, not their number: changes kept offline an hour ago and shared after newer ones are passed over, the newer ones below them taken")
    func sinceGoesByTime() {
        // Changes 3 and 4 were made offline before `since` and shared after change 2, made since.
        let old = Self.t0.addingTimeInterval(-3600)
        let journal = [Self.change(1), Self.change(2), UndoWalk.Step(step: 3, at: old), UndoWalk.Step(step: 4, at: old), Self.change(5)]
        let found = UndoWalk.changes(since: Self.t0.addingTimeInterval(2), from: 2, through: nil, Self.newestFirst(journal))
        #expect(found.steps.map(\.step) == [5, 2])
        let none = UndoWalk.changes(since: Self.t0.addingTimeInterval(9), from: nil, through: nil, Self.newestFirst(journal))
        #expect(none.steps.isEmpty && !none.stoppedAtPurge)
    }
}
