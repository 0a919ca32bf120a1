@testable import TodoServers
import Testing

/// Writes kept on this machine while the shared store is away: counted, and the count logged at most once
/// per interval while they go on, not once per write.
@Suite("offline writes")
struct OfflineWritesTests {
    @Test("the first offline write of an outage is not logged again; the count so far is, once per interval; taking it starts over")
    func countedPerInterval() {
        let refused = OfflineWrites(interval: .seconds(60))
        let start = ContinuousClock.now
        let told = [0, 1, 59, 60, 61, 119, 120].map { refused.counted(2, at: start + .seconds($0)) }
        #expect(told == [nil, nil, nil, 8, nil, nil, 14], "\(told)")
        #expect(refused.take() == 14)
        #expect(refused.take() == 0)
        // A new outage: its first write starts the interval again.
        let again = [200, 230, 260].map { refused.counted(1, at: start + .seconds($0)) }
        #expect(again == [nil, nil, 3], "\(again)")
    }
}
