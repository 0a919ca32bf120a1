/// `requestSettleConflict`: conflict `n` taken (this machine's value becomes the todo's, by an
/// ordinary change, broadcast as `responseTodoViewModel`) or left (the store's value stays,
/// answered with `responseSettleConflict`).
public struct ConflictSettlement: Sendable, Equatable, Codable {
    public var n: Int
    public var take: Bool

    public init(n: Int, take: Bool) {
        self.n = n
        self.take = take
    }
}
