import Foundation
import Testing

/// The README's drop-in for a shared store across machines, under the real unit's sandbox:
/// a TCP PostgreSQL that asks for a password, which comes from `~/.pgpass`.
extension SystemdTests {
    @Test(
        "a real user manager runs todod on a TCP PostgreSQL with the README's drop-in; without its address families the error says what to add",
        .enabled(if: SystemdUserManager.unavailableReason == nil, "needs root, and a machine where systemd is not PID 1"))
    func userManagerWithASharedStore() async throws {
        let postgres = try await PostgresTLSServer.start(tls: false)
        try await SystemdUserManager.with { user in
            let prefix = try await installForTest(user)
            try user.writeUserFile(".pgpass", "127.0.0.1:\(postgres.port):todos:postgres:\(PostgresTLSServer.password)\n")
            chmod(user.home + "/.pgpass", 0o600)
            let store = "postgresql://postgres@127.0.0.1:\(postgres.port)/todos"
            // First as a person would write it from the environment variable alone.
            try user.writeUserFile(".config/systemd/user/todod.service.d/store.conf", "[Service]\nEnvironment=TODOD_STORE=\(store)\n")
            try await user.start(unitPath: prefix + "/lib/systemd/user")
            try await user.systemctl("enable", "--now", "todod.socket")
            // todod starts (it serves its copy while the store is unreachable, and keeps writes on this machine), and says why the store is.
            let kept = try await user.runAsUser(prefix + "/bin/todoctl", ["add", "Buy", "milk"])
            #expect(kept.status == 0, "\(kept.stderr)")
            #expect(kept.stderr.contains("saved on this machine; shared when the store is back"), "\(kept.stderr)")
            let journal = try await user.userJournal(unit: "todod.service").map { $0.values.map { "\($0)" }.joined(separator: " ") }
            #expect(journal.contains { $0.contains("RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6") },
                    "the unit's sandbox refused TCP without the log saying what to add: \(journal)")

            // Then as the README writes the drop-in.
            try user.writeUserFile(
                ".config/systemd/user/todod.service.d/store.conf",
                "[Service]\nEnvironment=TODOD_STORE=\(store)\nRestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n")
            try await user.systemctl("daemon-reload")
            try await user.systemctl("stop", "todod.service")
            try await user.systemctl("start", "todod.socket")
            let added = try await user.runAsUser(prefix + "/bin/todoctl", ["add", "Buy", "bread"])
            #expect(added.status == 0, "\(added.stderr)\n\(user.managerOutput)")
            let status = try jsonObject(try await user.runAsUser(prefix + "/bin/todoctl", ["status", "--json"]).stdout)
            #expect((status["sharedStore"] as? [String: Any])?["store"] as? String == store)
            // The server the daemon reached over TCP is this test's, whose Unix socket psql asks.
            let answering = try await postgres.server.psql("SHOW data_directory", host: "127.0.0.1", password: PostgresTLSServer.password)
            #expect(answering == postgres.server.dataDirectory)
            // Two changes: the one kept while the sandbox refused TCP, shared first, then the add.
            let changes = try await postgres.server.psql("SELECT seq || ' of #' || number FROM journal ORDER BY seq")
            #expect(changes == "1 of #1\n2 of #2")
            let titles = try await postgres.server.psql("SELECT string_agg(todo->>'title', ',' ORDER BY number) FROM todo")
            #expect(titles == "Buy milk,Buy bread")
        }
        try await postgres.stop()
    }
}
