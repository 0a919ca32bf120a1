import Foundation
import TestHarness
import Testing

/// `depends:` through the real todoctl and todod: what a todo waits for, +BLOCKED and
/// +BLOCKING, show's lines, next's order, and the refusals.
@Suite("depends end to end")
struct DependsEndToEndTests {
    @Test("add … depends:1,2 blocks a todo until both are done: list marks it [b], +BLOCKED finds it, show names what it waits for and what it blocks, next puts it last; done unblocks")
    func blockedUntilDone() async throws {
        let directory = try makeTemporaryDirectory()
        let env = ["TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: env)
        _ = try await daemon.todoctl("add", "Buy flour", "pri:H", environment: env)
        _ = try await daemon.todoctl("add", "Buy eggs", environment: env)
        let added = try await daemon.todoctl("add", "Bake cake", "pri:H", "depends:1,#2", environment: env)
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        _ = try await daemon.todoctl("add", "Eat cake", "--depends", "3", environment: env)

        let list = try await daemon.todoctl("list", environment: env)
        #expect(list.lines.first { $0.contains("Bake cake") }?.hasPrefix("#3 [b]") == true, "\(list.stdout)")
        #expect(list.lines.first { $0.contains("Buy flour") }?.hasPrefix("#1 [ ]") == true, "\(list.stdout)")
        #expect(try await numbers(daemon, "+BLOCKED", env) == [3, 4])
        #expect(try await numbers(daemon, "-BLOCKED", env) == [1, 2])
        #expect(try await numbers(daemon, "+BLOCKING", env) == [1, 2, 3])

        let shown = try await daemon.todoctl("show", "3", environment: env).stdout
        #expect(shown.contains("\n  depends on #1 Buy flour (open), #2 Buy eggs (open)\n"), "\(shown)")
        #expect(shown.contains("\n  blocks    #4 Eat cake\n"), "\(shown)")
        let next = try await daemon.todoctl("next", environment: env)
        #expect(next.lines.compactMap { $0.split(separator: " ").first.map(String.init) } == ["#1", "#3"], "\(next.stdout)")

        _ = try await daemon.todoctl("done", "1", "2", environment: env)
        #expect(try await numbers(daemon, "+BLOCKED", env) == [4])
        let after = try await daemon.todoctl("show", "3", environment: env).stdout
        #expect(after.contains("\n  depends on #1 Buy flour (done), #2 Buy eggs (done)\n"), "\(after)")
        try await daemon.stop()
    }

    @Test("list depends:1 finds the todos waiting for #1, +READY the open ones neither blocked, waiting nor scheduled later, +SCHEDULED those with a scheduled day (they were refused)")
    func dependsReadyScheduledFilters() async throws {
        let directory = try makeTemporaryDirectory()
        let env = ["TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: env)
        _ = try await daemon.todoctl("add", "Buy flour", environment: env)
        _ = try await daemon.todoctl("add", "Bake cake", "depends:1", environment: env)
        _ = try await daemon.todoctl("add", "Eat cake", "depends:2", "scheduled:today", environment: env)
        _ = try await daemon.todoctl("add", "Plan party", "scheduled:+3d", environment: env)
        _ = try await daemon.todoctl("add", "Sweep", "scheduled:today", environment: env)
        _ = try await daemon.todoctl("add", "Call back", "wait:+2d", environment: env)
        #expect(try await numbers(daemon, "depends:1", env) == [2])
        #expect(try await numbers(daemon, "depends:#2", env) == [3])
        #expect(try await numbers(daemon, "+READY", env) == [1, 5])
        #expect(try await numbers(daemon, "+SCHEDULED", env) == [3, 4, 5])
        _ = try await daemon.todoctl("done", "1", environment: env)
        #expect(try await numbers(daemon, "+READY", env) == [2, 5])
        // Completed, #1 is still what #2 waits for.
        let all = try await daemon.todoctl("list", "--all", "depends:1", environment: env)
        #expect(all.lines.contains { $0.hasPrefix("#2 ") }, "\(all.stdout)\(all.stderr)")
        let removal = try await daemon.todoctl("list", "depends:-1", environment: env)
        #expect(removal.status == 64 && removal.stderr.contains("depends:1 finds the todos that wait for #1"), "\(removal.stderr)")
        try await daemon.stop()
    }

    @Test("list --json and next --json carry blocked: true on the blocked todos alone, show --json too; the others have no such key")
    func blockedInJSON() async throws {
        let directory = try makeTemporaryDirectory()
        let env = ["TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: env)
        _ = try await daemon.todoctl("add", "Buy flour", "pri:H", environment: env)
        _ = try await daemon.todoctl("add", "Bake cake", "pri:H", "depends:1", environment: env)
        func blocked(_ command: String) async throws -> [Int: Bool?] {
            let run = try await daemon.todoctl(command, "--json", environment: env)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stdout)\(run.stderr)")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["number"] as? Int ?? 0, $0["blocked"] as? Bool) })
        }
        #expect(try await blocked("list") == [1: nil, 2: true])
        #expect(try await blocked("next") == [1: nil, 2: true])
        let shown = try await daemon.todoctl("show", "2", "--json", environment: env).stdout
        #expect(shown.contains("\"blocked\" : true"), "\(shown)")
        _ = try await daemon.todoctl("done", "1", environment: env)
        #expect(try await blocked("list") == [2: nil])
        try await daemon.stop()
    }

    @Test("edit N depends:M adds, depends:-M takes away, depends: clears; itself, an unknown todo and a cycle are refused saying what to do, and nothing changes")
    func editAndRefusals() async throws {
        let directory = try makeTemporaryDirectory()
        let env = ["TZ": "UTC"]
        let daemon = try await DaemonProcess.start(in: directory, environment: env)
        for title in ["First", "Second", "Third"] { _ = try await daemon.todoctl("add", title, environment: env) }
        #expect(try await daemon.todoctl("edit", "3", "depends:1,2", environment: env).status == 0)
        #expect(try await daemon.todoctl("edit", "3", "depends:-1", environment: env).status == 0)
        #expect(try await daemon.todoctl("show", "3", environment: env).stdout.contains("\n  depends on #2 Second (open)\n"))

        let refusals = [
            (["edit", "3", "depends:3"], "#3 cannot wait for itself: name the other todos it waits for (depends:3,5)"),
            (["edit", "3", "depends:9"], "there is no todo #9: name an existing todo it waits for (todoctl list --all shows them)"),
            (["edit", "2", "depends:3"], "#3 already waits for #2 (#2 → #3 → #2), and a todo cannot wait for one that waits for it: take one dependency away first (edit 3 depends:-2)"),
            (["add", "Fourth", "depends:7"], "there is no todo #7"),
        ]
        for (arguments, message) in refusals {
            let refused = try await run("todoctl", arguments, environment: daemon.environment.merging(env) { $1 })
            #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.status) \(refused.stdout)\(refused.stderr)")
        }
        #expect(try await numbers(daemon, "+BLOCKED", env) == [3])

        #expect(try await daemon.todoctl("edit", "3", "depends:", environment: env).status == 0)
        #expect(try await numbers(daemon, "+BLOCKED", env) == [])
        #expect(try await daemon.todoctl("list", environment: env).stdout.contains("Fourth") == false)
        try await daemon.stop()
    }

    @Test("undo that would put back a dependency closing a cycle is refused, also with --force, saying which to take away; nothing changes (outside probe P7-7)")
    func undoRefusesACycle() async throws {
        let daemon = try await DaemonProcess.start()
        for arguments in [["add", "Ca"], ["add", "Cb"], ["edit", "1", "depends:2"], ["edit", "1", "depends:-2"], ["edit", "2", "depends:1"]] {
            let done = try await daemon.todoctl(arguments)
            #expect(done.status == 0, "\(done.stderr)")
        }
        for arguments in [["undo", "4"], ["undo", "4", "--force"]] {
            let refused = try await daemon.todoctl(arguments)
            #expect(refused.status != 0, "\(refused.stdout)")
            #expect(refused.stderr.contains("cannot undo: it would make #1 wait for #2 again, which waits for it now (#1 → #2 → #1)")
                    && refused.stderr.contains("todoctl edit 2 depends:-1"), "\(refused.stderr)")
        }
        let one = try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)
        #expect((one["depends"] as? [Any] ?? []).isEmpty, "\(one)")
        try await daemon.stop()
    }

    @Test("a dependency and a scheduled day made through one daemon sharing PostgreSQL are in the store's todo JSON, and the other daemon finds the todo +BLOCKED, shows both, and unblocks it when the dependency is done there")
    func sharedStore() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for command in [["add", "Buy flour"], ["add", "Bake cake", "depends:1", "scheduled:2026-12-01"]] {
            let result = try await run("todoctl", command, environment: first.environment)
            #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
        }
        let stored = try await server.psql("SELECT (todo->'depends') IS NOT NULL AND todo->>'scheduled' = '2026-12-01' FROM todo WHERE number = 2")
        #expect(stored == "t", "\(stored)")
        try await awaitSequence(2, on: second)
        #expect(try await numbers(second, "+BLOCKED", [:]) == [2])
        let shown = try await second.todoctl("show", "2").stdout
        #expect(shown.contains("depends on #1 Buy flour (open)") && shown.contains("scheduled 2026-12-01"), "\(shown)")
        #expect(try await second.todoctl("done", "1").status == 0)
        try await awaitSequence(3, on: first)
        #expect(try await numbers(first, "+BLOCKED", [:]) == [])
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }

    /// The numbers `todoctl list WORD` shows, in number order.
    private func numbers(_ daemon: DaemonProcess, _ word: String, _ env: [String: String]) async throws -> [Int] {
        let list = try await daemon.todoctl("list", word, environment: env)
        #expect(list.status == 0, "\(list.stderr)")
        return list.lines.compactMap { line in line.hasPrefix("#") ? Int(line.dropFirst().prefix { $0.isNumber }) : nil }.sorted()
    }
}
