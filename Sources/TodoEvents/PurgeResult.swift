/// `responsePurge`: the numbers of the todos removed for good, and the change number the
/// purge took (no change is broadcast for it: the gap tells Views to read their list again).
public struct PurgeResult: Sendable, Equatable, Codable {
    public var numbers: [Int]
    public var seq: UInt64

    public init(numbers: [Int], seq: UInt64) {
        self.numbers = numbers
        self.seq = seq
    }
}
