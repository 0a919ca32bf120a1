import Foundation
import Testing

@Suite("todoctl next against a real daemon")
struct NextCommandTests {
    @Test("next (and today) lists overdue, due soon and high todos, the overdue one above the undated high one")
    func next() async throws {
        let daemon = try await FilterTests.week()
        _ = try await run("todoctl", ["add", "Someday", "-d", "+3w"], environment: daemon.environment.merging(fixedClock) { $1 })
        let environment = daemon.environment.merging(fixedClock) { $1 }
        let next = try await run("todoctl", ["next"], environment: environment)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.lines.map { String($0.prefix(2)) } == ["#1", "#4", "#2", "#3"])
        #expect(next.lines[0].contains("2 days overdue"))
        let result = try await run("todoctl", ["today"], environment: environment)
        #expect(result.stdout == next.stdout)
        let admin = try jsonArray(try await run("todoctl", ["next", "-j", "-t", "admin"], environment: environment).stdout)
        #expect(admin.compactMap { $0["number"] as? Int } == [1, 4])
        try await daemon.stop()
    }

    @Test("todoctl with no command lists, and takes list's options")
    func defaultCommand() async throws {
        let daemon = try await FilterTests.week()
        let environment = daemon.environment.merging(fixedClock) { $1 }
        let bare = try await run("todoctl", [], environment: environment)
        #expect(bare.status == 0)
        let result = try await run("todoctl", ["list"], environment: environment)
        #expect(bare.stdout == (result).stdout)
        #expect(bare.lines.count == 4)
        let tagged = try await run("todoctl", ["-t", "errands"], environment: environment)
        #expect(tagged.lines.count == 1 && tagged.lines[0].contains("Buy milk"))
        try await daemon.stop()
    }
}
