import Foundation
import Testing

/// `--ical-dir` in a directory another local user may write: a household's shared calendar
/// (mode 2770, the group theirs) or a 1777 one. That user must not be able to make todod
/// write anywhere but its own files. Root is todod's user; the other is made with useradd.
@Suite("an iCalendar directory another user can write", .enabled(if: getuid() == 0, "needs root to add a user"))
struct CalendarDirectoryTrustTests {
    /// A local user made for one test (useradd) and removed after it (userdel).
    private struct Housemate {
        let name: String
        let uid: uid_t
        let gid: gid_t

        static func with(_ body: (Housemate) async throws -> Void) async throws {
            let name = "todod-h" + UUID().uuidString.prefix(8).lowercased()
            let added = try await run("/usr/sbin/useradd", ["--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name])
            guard added.status == 0, let entry = getpwnam(name) else { throw TestFailure("useradd \(name): \(added.stderr)") }
            let housemate = Housemate(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
            do {
                try await body(housemate)
            } catch {
                _ = try? await run("/usr/sbin/userdel", [name])
                throw error
            }
            let removed = try await run("/usr/sbin/userdel", [name])
            #expect(removed.status == 0, "userdel \(name): \(removed.stderr)")
        }

        /// Runs `program` as this user, with no other group.
        func running(_ program: String, _ arguments: [String]) async throws -> CommandResult {
            try await run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", program] + arguments)
        }
    }

    @Test("a symbolic link planted where todod made its temporary file leaves the link's target untouched", arguments: [0o2770, 0o1777])
    func plantedTemporaryFile(mode: Int) async throws {
        try await Housemate.with { housemate in
            let base = try makeTemporaryDirectory()
            chmod(base, 0o755)
            let vdir = base + "/shared"
            #expect(mkdir(vdir, 0o700) == 0)
            #expect(chown(vdir, 0, housemate.gid) == 0)
            #expect(chmod(vdir, mode_t(mode)) == 0)
            // A file of todod's user that the housemate may not write.
            let victim = base + "/precious"
            try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
            chmod(victim, 0o644)

            let daemon = try await DaemonProcess.start(arguments: ["--ical-dir", vdir])
            #expect(try await daemon.todoctl("add", "Pay rent").status == 0)
            let id = try #require(try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)["id"] as? String).lowercased()
            // The name todod wrote through (.UID.ics.PID.tmp), and guesses at others.
            for name in [".\(id).ics.\(daemon.pid).tmp", ".\(id).ics.tmp", ".\(id).ics"] {
                let planted = try await housemate.running("/bin/ln", ["-s", victim, vdir + "/" + name])
                #expect(planted.status == 0, "ln -s as \(housemate.name): \(planted.stderr)")
            }
            #expect(try await daemon.todoctl("edit", "1", "--title", "Pay rent today").status == 0)
            let file = (try? String(contentsOfFile: vdir + "/\(id).ics", encoding: .utf8)) ?? "(none)"
            #expect(file.contains("SUMMARY:Pay rent today\r\n"), "\(file)")
            let target = (try? String(contentsOfFile: victim, encoding: .utf8)) ?? "(none)"
            #expect(target == "precious\n", "the link's target now holds: \(target)")
            try await daemon.stop()
            #expect(daemon.log.contains("writable by other users (mode \(String(mode, radix: 8)))"), "\(daemon.log)")
        }
    }
}
