import Foundation

/// What an undo takes back: the change `seq` (with the rest of its step), every change made
/// at or after `since` (newest first, as one step), or, with neither, the last step.
/// Fields changed again since are a conflict unless `force`.
public struct TodoUndo: Sendable, Codable, Equatable {
    public var seq: UInt64?
    public var since: Date?
    public var force: Bool

    public init(seq: UInt64? = nil, since: Date? = nil, force: Bool = false) {
        self.seq = seq
        self.since = since
        self.force = force
    }
}

extension TodoUndo {
    // Every field may be left out: `{}` undoes the last step.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seq: try c.decodeIfPresent(UInt64.self, forKey: .seq), since: try c.decodeIfPresent(Date.self, forKey: .since),
            force: try c.decodeIfPresent(Bool.self, forKey: .force) ?? false)
    }
}
