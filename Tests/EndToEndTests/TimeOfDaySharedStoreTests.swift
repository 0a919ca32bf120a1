import Foundation
import TestHarness
import Testing

/// Times of day in a shared store (`todod --store`, a real PostgreSQL): members of the todo's
/// JSON beside its days, in the todo table and in the journal, read by every replica.
@Suite("Times of day in PostgreSQL", .serialized)
struct TimeOfDaySharedStoreTests {
    @Test("a due time set through one daemon is the todo's dueTime in PostgreSQL and the other daemon's; a due day given there without one is due all day, and an undo through the first puts the time back everywhere")
    func sharedStore() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let raw = try first.connect()
        _ = try await raw.awaitLine(containing: "responseHello")
        try raw.send(#"{"event":"requestNewTodo","id":"n","data":{"title":"Call the bank","due":"2026-12-24","dueTime":"15:00","wait":"2026-12-01","waitTime":"09:30"}}"# + "\n")
        _ = try await raw.awaitLine(containing: #""id":"n""#)
        #expect(try await server.psql("SELECT todo->>'due', todo->>'dueTime', todo->>'waitTime' FROM todo WHERE number = 1") == "2026-12-24|15:00|09:30")
        #expect(try await server.psql("SELECT entry->'after'->>'dueTime' FROM journal") == "15:00")

        try await awaitSequence(1, on: second)
        let other = try second.connect()
        _ = try await other.awaitLine(containing: "responseHello")
        try other.send(#"{"event":"requestTodoDetail","id":"d","data":1}"# + "\n")
        let detail = try await other.awaitLine(containing: #""id":"d""#)
        #expect(detail.contains(#""dueTime":"15:00""#) && detail.contains(#""waitTime":"09:30""#), "\(detail)")

        let edited = try await second.todoctl("edit", "1", "--due", "2026-12-24")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try await server.psql("SELECT todo->>'due', todo ? 'dueTime', todo->>'waitTime' FROM todo WHERE number = 1") == "2026-12-24|f|09:30")
        try await awaitSequence(2, on: first)
        let undone = try await first.todoctl("undo")
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try await server.psql("SELECT todo->>'dueTime' FROM todo WHERE number = 1") == "15:00")
        try await awaitSequence(3, on: second)
        try other.send(#"{"event":"requestTodoDetail","id":"e","data":1}"# + "\n")
        let again = try await other.awaitLine(containing: #""id":"e""#)
        #expect(again.contains(#""dueTime":"15:00""#), "\(again)")
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }
}
