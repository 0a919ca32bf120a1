@testable import TodoServers
import Testing

/// Writes refused while the shared store is away: counted, and the count logged at most once
/// per interval while they go on, not once per write.
@Suite("refused writes")
struct RefusedWritesTests {
    @Test("the first refusal of an outage is not logged again; the count so far is, once per interval; taking it starts over")
    func countedPerInterval() {
        let refused = RefusedWrites(interval: .seconds(60))
        let start = ContinuousClock.now
        let told = [0, 1, 59, 60, 61, 119, 120].map { refused.refused(2, at: start + .seconds($0)) }
        #expect(told == [nil, nil, nil, 8, nil, nil, 14], "\(told)")
        #expect(refused.take() == 14)
        #expect(refused.take() == 0)
        // A new outage: its first refusal starts the interval again.
        let again = [200, 230, 260].map { refused.refused(1, at: start + .seconds($0)) }
        #expect(again == [nil, nil, 3], "\(again)")
    }
}
