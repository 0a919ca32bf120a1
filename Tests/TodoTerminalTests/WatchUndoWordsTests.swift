import Foundation
import Testing
import TodoModel
import TodoTerminal
import TodoViewModel

/// watch's status line after U or R is refused: its keys, never todoctl's commands.
@Suite("watch's words for a refused undo or redo")
struct WatchUndoWordsTests {
    @Test("a refused undo or redo keeps what happened and names watch's keys, with no todoctl command or flag left")
    func refusalsSpeakWatch() {
        let current = todo(1, "Call plumber", revision: 4)
        let refusals: [(TodoModelError, String)] = [
            (.undoConflict(field: "title", undoing: 3, later: 4, current: current),
             "cannot undo change 3: #1's title was changed again by change 4"),
            (.nothingToUndo("every change in the journal is undone already (redo with `todoctl redo`)"),
             "nothing to undo: every change in the journal is undone already (redo with R)"),
            (.nothingToRedo("change 8 (#2 created by todoctl (client 6)) was made after the last undo, and a new change ends the redo chain, as in editors; `todoctl undo` takes it back"),
             "nothing to redo: change 8 (#2 created by todoctl (client 6)) was made after the last undo, and a new change ends the redo chain, as in editors; U takes it back"),
            (.nothingToUndo("a purge (`todoctl purge`) removed deleted todos and their history after the last change still in effect, and undo does not step back past a purge; an older change can still be undone by its number: `todoctl undo SEQ`"),
             "nothing to undo: a purge removed deleted todos and their history after the last change still in effect, and undo does not step back past a purge"),
        ]
        for (error, expected) in refusals {
            let said = WatchUndoWords.refusal(TodoError(error).message)
            #expect(said == expected, "\(said)")
            #expect(!said.contains("`todoctl") && !said.contains("--"), "\(said)")
        }
    }
}
