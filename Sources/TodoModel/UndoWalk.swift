import Foundation

/// Which journal steps `undo` and `redo` take, worked out from the journal alone (so it
/// survives a restart), newest step first, as an editor's undo stack would have them:
/// `undo` takes back the newest change still in effect, stepping past undos and redos and
/// past changes already undone; `redo` takes back the newest undo still in effect, and a
/// change made after it ends the chain.
///
/// A step is in effect unless a later step in effect took it back: an undo takes back
/// changes, a redo takes back an undo (which puts those changes in effect again), an undo
/// of a redo takes the redo back.
public struct UndoWalk: Sendable {
    /// One step of the journal as undo sees it.
    public struct Step: Sendable, Equatable {
        public var step: UInt64
        public var at: Date
        /// The steps it took back: empty for a change.
        public var undoneSteps: [UInt64]
        public var isRedo: Bool
        /// The seqs of its first and last rows still in the journal (a purge may have removed some).
        public var seqs: ClosedRange<UInt64>
        /// Every seq in `seqs` is held by a row, its own or another step's: false when a
        /// purge took one between its rows (a step that went on across requests has other
        /// steps' rows between its own).
        public var whole: Bool

        public init(step: UInt64, at: Date, undoneSteps: [UInt64] = [], isRedo: Bool = false, seqs: ClosedRange<UInt64>? = nil, whole: Bool = true) {
            self.step = step
            self.at = at
            self.undoneSteps = undoneSteps
            self.isRedo = isRedo
            self.seqs = seqs ?? step...step
            self.whole = whole
        }

        public var isChange: Bool { undoneSteps.isEmpty }

        /// Made after the purge numbered `lastPurge` (0: none) with every row still there:
        /// `undo` does not step back past a step that is not.
        public func isAfter(purge lastPurge: UInt64) -> Bool {
            step > lastPurge && seqs.lowerBound == step && whole
        }
    }

    /// What `undo` found.
    public enum UndoTarget: Sendable, Equatable {
        /// The change to take back.
        case change(Step)
        /// A purge came after every change still in effect: undo does not step back past it.
        case purged
        /// No change is in effect.
        case none
    }

    /// What `redo` found.
    public enum RedoTarget: Sendable, Equatable {
        /// The undo to take back.
        case undo(Step)
        /// This change, made after the last undo, ends the redo chain.
        case endedBy(Step)
        /// Every undo since the last change is redone already.
        case allRedone
        /// The journal holds no undo.
        case noUndo
    }

    private var takenBack: Set<UInt64> = []
    private var sawRedo = false

    public init() {}

    /// Visits the next older step; whether it is still in effect.
    public mutating func visit(_ step: Step) -> Bool {
        guard !takenBack.contains(step.step) else { return false }
        takenBack.formUnion(step.undoneSteps)
        if step.isRedo { sawRedo = true }
        return true
    }

    // Each walk takes the steps newest first from `next` (nil: no older one), reading only
    // as far back as it needs: the journal may hold a 100,000-todo import.

    /// The change `undo` takes back: the newest one in effect, made after the last purge
    /// (`lastPurge`, its change number; 0 for none). A purge removes its todos' rows: the
    /// walk stops at the first step with a row from before it, however many changes came
    /// after the purge, since what it would reach has lost part of its history. A number
    /// no row holds is no purge by itself (sharing changes kept offline leaves some).
    ///
    /// Steps come by their newest row, and one that went on across requests spans other
    /// steps' rows: its first row is its step's number, unless a purge took it.
    public static func undoTarget(lastPurge: UInt64, _ next: () throws -> Step?) rethrows -> UndoTarget {
        var walk = UndoWalk()
        var visited = false
        while let step = try next() {
            guard step.isAfter(purge: lastPurge) else { return .purged }
            visited = true
            if walk.visit(step) && step.isChange { return .change(step) }
        }
        // Changes were made and no row is left: a purge took them all.
        return !visited && lastPurge > 0 ? .purged : .none
    }

    /// The step that took `step` back, when a step still in effect did (nil: it is in effect).
    public static func takenBack(_ step: UInt64, _ next: () throws -> Step?) rethrows -> UInt64? {
        var walk = UndoWalk()
        var by: [UInt64: UInt64] = [:]
        // An undo comes after every row of what it took back (no step goes on past an undo).
        while let found = try next(), found.seqs.upperBound > step {
            guard walk.visit(found) else { continue }
            for undone in found.undoneSteps where by[undone] == nil { by[undone] = found.step }
        }
        return walk.takenBack.contains(step) ? by[step] : nil
    }

    /// What `undo --since` found: the changes to take back, newest first, and whether the
    /// walk stopped at a purge before reaching `since`.
    public struct SinceChanges: Sendable, Equatable {
        public var steps: [Step]
        public var stoppedAtPurge: Bool
    }

    /// The changes in effect made at or after `since` (those whose newest row is `through`
    /// or before: the last a preview listed), which `undo --since` takes back: newest first.
    /// By their time, not their number: a replica that shares changes it kept offline gives
    /// them numbers after the other machines' since then, so an older change may come after
    /// a newer one (O7). The walk goes back to `oldest`, the first row made
    /// at or after `since` (nil: none is), passing over the older steps between.
    /// It stops at a purge (`lastPurge`) as `undoTarget` does: what it would reach past it
    /// has lost part of its history, and plain `undo` would refuse to take it back.
    public static func changes(since: Date, from oldest: UInt64?, through: UInt64?, lastPurge: UInt64 = 0,
                               _ next: () throws -> Step?) rethrows -> SinceChanges {
        var walk = UndoWalk()
        var found: [Step] = []
        guard let oldest else { return SinceChanges(steps: [], stoppedAtPurge: false) }
        while let step = try next(), step.seqs.upperBound >= oldest {
            guard step.isAfter(purge: lastPurge) else { return SinceChanges(steps: found, stoppedAtPurge: true) }
            if walk.visit(step), step.isChange, step.at >= since, step.seqs.upperBound <= through ?? .max { found.append(step) }
        }
        return SinceChanges(steps: found, stoppedAtPurge: false)
    }

    /// The undo `redo` takes back: the newest undo in effect, unless a change in effect
    /// comes first (a redo in effect is stepped past: its undo is redone).
    public static func redoTarget(_ next: () throws -> Step?) rethrows -> RedoTarget {
        var walk = UndoWalk()
        while let step = try next() {
            guard walk.visit(step), !step.isRedo else { continue }
            if !step.isChange { return .undo(step) }
            return walk.sawRedo ? .allRedone : .endedBy(step)
        }
        return walk.sawRedo ? .allRedone : .noUndo
    }
}
