import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import TodoPostgres

/// The deadline on postgres-nio's futures: the waiting thread goes on only once the
/// connection is abandoned, so that its next statement never meets the old one half closed.
@Suite struct DeadlineTests {
    @Test("a wait past its deadline returns only after abandon has returned, however long abandon takes")
    func theWaitReturnsAfterAbandon() throws {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let never = loop.makePromise(of: Int.self)
        let abandoned = Atomic(false)
        #expect(throws: Deadline.Expired.self) {
            try Deadline.wait(for: never.futureResult, within: .milliseconds(10)) {
                // A loop descheduled between the two steps, made certain: the waiter would
                // find the connection still open had it been woken first.
                Thread.sleep(forTimeInterval: 0.2)
                abandoned.store(true, ordering: .sequentiallyConsistent)
            }
        }
        let abandonedFirst = abandoned.load(ordering: .sequentiallyConsistent)
        #expect(abandonedFirst)
        never.succeed(0)
    }

    @Test("abandoning fails the statement at once (postgres-nio closing its connection), and the wait still says the deadline passed")
    func theDeadlineIsToldNotTheClosedConnection() throws {
        struct ConnectionClosed: Error {}
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let statement = loop.makePromise(of: Int.self)
        #expect(throws: Deadline.Expired.self) {
            try Deadline.wait(for: statement.futureResult, within: .milliseconds(10)) { statement.fail(ConnectionClosed()) }
        }
    }

    @Test("a future answered in time is returned and the connection is not abandoned")
    func anAnswerInTimeIsKept() throws {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let abandoned = Atomic(false)
        let value = try Deadline.wait(for: loop.makeSucceededFuture(7), within: .seconds(5)) {
            abandoned.store(true, ordering: .sequentiallyConsistent)
        }
        let wasAbandoned = abandoned.load(ordering: .sequentiallyConsistent)
        #expect(value == 7)
        #expect(!wasAbandoned)
    }
}
