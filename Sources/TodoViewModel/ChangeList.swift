/// Journaled changes, oldest first, as of the change `seq` (`responseChanges`,
/// `responseHistory`, `responseLog`, `responseUndo`).
public struct ChangeList: Sendable, Equatable, Codable {
    public var changes: [JournaledChange]
    /// The last change the answer is current as of: broadcasts after it are newer.
    public var seq: UInt64
    /// For `requestChanges`: more changes than the limit were missed, none are sent; ask
    /// for the whole list (`requestTodoViewModels`) instead.
    public var tooFarBehind: Bool
    /// For `requestLog` and `requestHistory`: the answer stopped at its size bound (about
    /// `JournalReadResult.maximumPageBytes` of todo text, big todos being big): ask again
    /// after its last change for the rest. Absent when the answer is whole.
    public var more: Bool?
    /// For `requestUndo`, `requestRedo` and `requestReplay`: the changes were committed on the
    /// daemon's machine alone, its shared store away for this reason (`TodoChange.unshared`);
    /// absent when they were shared.
    public var unshared: String?

    public init(changes: [JournaledChange], seq: UInt64, tooFarBehind: Bool = false, more: Bool = false, unshared: String? = nil) {
        self.changes = changes
        self.seq = seq
        self.tooFarBehind = tooFarBehind
        self.more = more ? true : nil
        self.unshared = unshared
    }

    /// The most changes one answer carries; also the default limit.
    public static let maximumChanges = 1000
}
