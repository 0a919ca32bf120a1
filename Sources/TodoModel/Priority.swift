/// How much a todo matters. Ordered: `low < normal < high`.
public enum Priority: String, Sendable, Codable, CaseIterable, Comparable {
    case low, normal, high

    private var rank: Int {
        switch self {
        case .low: 0
        case .normal: 1
        case .high: 2
        }
    }

    public static func < (a: Priority, b: Priority) -> Bool { a.rank < b.rank }

    /// The next priority round the cycle low → normal → high → low.
    public var next: Priority {
        switch self {
        case .low: .normal
        case .normal: .high
        case .high: .low
        }
    }
}
