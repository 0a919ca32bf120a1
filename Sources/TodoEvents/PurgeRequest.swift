import Foundation

/// `requestPurge`: deleted todos removed for good, with their journal entries; only those
/// deleted at or before `deletedBefore` when it is given.
public struct PurgeRequest: Sendable, Equatable, Codable {
    public var deletedBefore: Date?

    public init(deletedBefore: Date? = nil) {
        self.deletedBefore = deletedBefore
    }
}
