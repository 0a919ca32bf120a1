/// `requestConflicts`: this replica's open conflicts; with `all`, also those taken or left.
public struct ConflictsRequest: Sendable, Equatable, Codable {
    public var all: Bool

    public init(all: Bool = false) {
        self.all = all
    }
}
