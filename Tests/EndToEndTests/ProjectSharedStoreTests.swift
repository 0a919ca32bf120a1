import Foundation
import TestHarness
import Testing

/// Projects in a shared store (`todod --store`, a real PostgreSQL): stored as the field, and
/// moved out of the `project:NAME` tags a store written before the field holds.
@Suite("Projects in PostgreSQL", .serialized)
struct ProjectSharedStoreTests {
    @Test("a project set through one daemon is the field in PostgreSQL and the other daemon's; a store whose todos and journal hold project:NAME tags has them moved into the project when a daemon starts, and a new replica reads them so")
    func sharedStore() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let added = try await first.todoctl("add", "Dig", "beds", "project:home.garden", "+outside")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await server.psql("SELECT todo->>'project' FROM todo WHERE number = 1") == "home.garden")
        try await first.stop()

        // As todod wrote the store before projects were a field: the project a tag, in the row and in its journal entry.
        let old = #"'{"tags": ["outside", "project:home.garden"]}'::jsonb"#
        _ = try await server.psql("UPDATE todo SET todo = (todo - 'project') || \(old)")
        _ = try await server.psql("UPDATE journal SET entry = jsonb_set(entry, '{after}', ((entry->'after') - 'project') || \(old))")
        let fresh = try await DaemonProcess.start(arguments: ["--store", server.uri])
        #expect(try await server.psql("SELECT todo->>'project', todo->'tags' FROM todo WHERE number = 1") == #"home.garden|["outside"]"#)
        #expect(try await server.psql("SELECT entry->'after'->>'project' FROM journal") == "home.garden")
        let todo = try #require(try jsonArray(try await fresh.todoctl("list", "--json").stdout).first)
        #expect(todo["project"] as? String == "home.garden" && todo["tags"] as? [String] == ["outside"], "\(todo)")
        try await fresh.stop()
        try await server.stop()
    }
}
