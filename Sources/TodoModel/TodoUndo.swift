import Foundation

/// What an undo takes back: the change `seq` (with the rest of its step), every change made
/// at or after `since` and still in effect (newest first, as one step; only up to `through`
/// when given), or, with neither, the newest change still in effect (`UndoWalk`).
/// Fields changed again since are a conflict unless `force`. With `preview`, nothing is
/// written: the answer lists the changes the undo would take back, so that a client can ask first.
public struct TodoUndo: Sendable, Codable, Equatable {
    public var seq: UInt64?
    public var since: Date?
    public var force: Bool
    public var through: UInt64?
    public var preview: Bool

    public init(seq: UInt64? = nil, since: Date? = nil, force: Bool = false, through: UInt64? = nil, preview: Bool = false) {
        self.seq = seq
        self.since = since
        self.force = force
        self.through = through
        self.preview = preview
    }
}

extension TodoUndo {
    // Every field may be left out: `{}` undoes the last step.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seq: try c.decodeIfPresent(UInt64.self, forKey: .seq), since: try c.decodeIfPresent(Date.self, forKey: .since),
            force: try c.decodeIfPresent(Bool.self, forKey: .force) ?? false, through: try c.decodeIfPresent(UInt64.self, forKey: .through),
            preview: try c.decodeIfPresent(Bool.self, forKey: .preview) ?? false)
    }
}
