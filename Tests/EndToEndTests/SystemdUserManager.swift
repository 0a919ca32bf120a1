import Foundation
import TestHarness

/// A real systemd user manager (`systemd --user`) for a test, on a machine where systemd is not
/// PID 1 (CI, containers): a fresh regular user with its home, a runtime directory
/// /run/user/UID, a cgroup delegated to it as logind would (user.slice/user-UID.slice/
/// user@UID.service), and /run/systemd/system (without it `systemd --user` refuses to run) and
/// /run/systemd/unit-root (where the service's mount namespace is built: a booted system has it,
/// a user manager in a user namespace cannot create it).
///
/// It also runs a systemd-journald when none runs, with the journal on disk as Debian keeps it,
/// so that the user reads the service's logs with `journalctl --user -u todod` as a user does.
///
/// It needs root. Never run `systemd --user` as root in the root cgroup: it takes that cgroup
/// for its own and moves every process of the machine into its init.scope. This one runs as the
/// new user in its own cgroup, so it can touch nothing else.
///
/// `shutdown()` stops the manager and undoes everything, in reverse order; it must run whatever
/// the test did (see `SystemdUserManager.with`).
final class SystemdUserManager: @unchecked Sendable {
    let name: String
    let uid: uid_t
    let gid: gid_t
    let home: String
    let runtimeDirectory: String
    /// The delegated cgroup in every hierarchy systemd uses (cgroup v2, or the hybrid pair).
    private let cgroups: [String]
    private var cleanups: [(what: String, undo: @Sendable () throws -> Void)] = []
    private var manager: ChildProcess?
    private var notify: NotifySocket?

    /// Why it cannot run here, or nil.
    static var unavailableReason: String? {
        if getuid() != 0 { return "needs root: it adds a user, delegates a cgroup and writes /run/systemd" }
        if let pid1 = try? String(contentsOfFile: "/proc/1/comm", encoding: .utf8), pid1.hasPrefix("systemd") {
            return "systemd is PID 1 here: this test brings its own user manager for machines without one"
        }
        return nil
    }

    /// The environment of the user's own commands (systemctl, todoctl), as a login would set it.
    var environment: [String: String] {
        ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "USER": name, "LOGNAME": name,
         "XDG_RUNTIME_DIR": runtimeDirectory, "LANG": "C.UTF-8", "NO_COLOR": "1", "SYSTEMD_COLORS": "0"]
    }

    /// Runs `body` with a new user's manager set up but not started (`start`), and always shuts it down.
    static func with(_ body: (SystemdUserManager) async throws -> Void) async throws {
        let manager = try await blocking { try SystemdUserManager() }
        do {
            try await body(manager)
        } catch {
            do { try await manager.shutdown() } catch let cleanup { throw TestFailure("\(error)\nand then \(cleanup)") }
            throw error
        }
        try await manager.shutdown()
    }

    private init() throws {
        let name = "todod-t" + UUID().uuidString.prefix(8).lowercased()
        var cgroups: [String] = []
        var cleanups: [(what: String, undo: @Sendable () throws -> Void)] = []
        func undoAll() { for cleanup in cleanups.reversed() { try? cleanup.undo() } }
        let uid: uid_t, gid: gid_t, home: String, runtime: String
        do {
            for directory in ["/run/systemd/system", "/run/systemd/unit-root"] where !FileManager.default.fileExists(atPath: directory) {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
                cleanups.append(("remove \(directory)", { _ = rmdir(directory) }))
            }
            let added = try runNow("/usr/sbin/useradd", ["--create-home", "--user-group", "--shell", "/usr/sbin/nologin", "--comment", "todod test", name])
            guard added.status == 0, let entry = getpwnam(name) else { throw TestFailure("useradd \(name) failed: \(added.output)") }
            cleanups.append(("userdel \(name)", {
                let removed = try runNow("/usr/sbin/userdel", ["--remove", name])
                guard removed.status == 0 else { throw TestFailure("userdel \(name): \(removed.output)") }
            }))
            uid = entry.pointee.pw_uid
            gid = entry.pointee.pw_gid
            home = String(cString: entry.pointee.pw_dir)

            if !FileManager.default.fileExists(atPath: "/run/user") {
                try FileManager.default.createDirectory(atPath: "/run/user", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
                cleanups.append(("remove /run/user", { _ = rmdir("/run/user") }))
            }
            runtime = "/run/user/\(uid)"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            cleanups.append(("remove \(runtime)", { try FileManager.default.removeItem(atPath: runtime) }))
            guard chown(runtime, uid, gid) == 0 else { throw TestFailure("chown \(runtime): errno \(errno)") }

            // The cgroup, as logind makes it for user@UID.service: the manager may manage what is below.
            let roots: [String]
            if FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cgroup.controllers") {
                roots = ["/sys/fs/cgroup"]  // cgroup v2 only
            } else {
                roots = ["/sys/fs/cgroup/unified", "/sys/fs/cgroup/systemd"].filter { FileManager.default.fileExists(atPath: $0 + "/cgroup.procs") }
            }
            guard !roots.isEmpty else { throw TestFailure("no cgroup hierarchy for systemd under /sys/fs/cgroup") }
            for root in roots {
                var path = root
                let components = ["user.slice", "user-\(uid).slice", "user@\(uid).service"]
                for (index, component) in components.enumerated() {
                    path += "/" + component
                    if mkdir(path, 0o755) == 0 {
                        let made = path
                        if index == components.count - 1 {
                            cleanups.append(("remove cgroup \(made)", { try SystemdUserManager.removeCgroup(made) }))
                        } else {
                            cleanups.append(("remove cgroup \(made)", { _ = rmdir(made) }))  // only if nobody else uses it
                        }
                    } else if errno != EEXIST {
                        throw TestFailure("cannot make the cgroup \(path): errno \(errno)")
                    }
                }
                let delegated = try runNow("/bin/chown", ["-R", "\(uid):\(gid)", path])
                guard delegated.status == 0 else { throw TestFailure("cannot delegate \(path): \(delegated.output)") }
                cgroups.append(path)
            }
        } catch {
            undoAll()
            throw error
        }
        self.name = name
        self.uid = uid
        self.gid = gid
        self.home = home
        self.runtimeDirectory = runtime
        self.cgroups = cgroups
        self.cleanups = cleanups
    }

    /// Writes a file in the user's home (a unit drop-in, say) as the user's own.
    func writeUserFile(_ relativePath: String, _ contents: String) throws {
        let path = home + "/" + relativePath
        var directory = (path as NSString).deletingLastPathComponent
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: directory) {
            missing.insert(directory, at: 0)
            directory = (directory as NSString).deletingLastPathComponent
        }
        for directory in missing {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            chown(directory, uid, gid)
        }
        try contents.write(toFile: path, atomically: false, encoding: .utf8)
        chown(path, uid, gid)
    }

    /// Starts `systemd --user` as the user in its cgroup, and waits for its READY=1 (sent once it
    /// has started default.target). `unitPath` is put before the usual search path
    /// ($SYSTEMD_UNIT_PATH), where `make install PREFIX=…` put the units.
    func start(unitPath: String? = nil) async throws {
        try await startJournal()
        let notifyPath = runtimeDirectory + "/test-manager-notify.sock"
        let notify = try NotifySocket(path: notifyPath)
        self.notify = notify
        chown(notifyPath, uid, gid)
        var variables = environment
        variables["SHELL"] = "/bin/sh"
        variables["NOTIFY_SOCKET"] = notifyPath
        // Its own messages too (it would write them to the stderr it closes): for failure messages.
        variables["SYSTEMD_LOG_TARGET"] = "journal"
        if let unitPath { variables["SYSTEMD_UNIT_PATH"] = unitPath + ":" }
        // Into the cgroup first (as root), then become the user and be the manager: same pid throughout.
        let script = #"for procs in "$@"; do echo $$ > "$procs"; done; exec setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --init-groups /lib/systemd/systemd --user"#
        variables["TEST_UID"] = "\(uid)"
        variables["TEST_GID"] = "\(gid)"
        let manager = try ChildProcess("/bin/sh", ["-c", script, "sh"] + cgroups.map { $0 + "/cgroup.procs" }, environment: variables)
        self.manager = manager
        do {
            // 120 s: beside the bounds suite's heavy clients on 2 cores, it once took over 60 (a CI run of 2026-11-24).
            _ = try await notify.awaitMessage(containing: "READY=1", timeout: 120)
        } catch {
            throw TestFailure("the user manager did not get ready: \(error)\n\(manager.output)")
        }
    }

    /// systemd-journald, unless one runs already: persistent storage (journald splits the journal
    /// by user only there), straight to /var/log/journal (the `flushed` flag: there is no early
    /// boot to wait for). Everything it adds is removed by `shutdown`.
    private func startJournal() async throws {
        let running = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).contains { entry in
            guard Int(entry) != nil else { return false }
            return (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8))?.hasPrefix("systemd-journal") == true
        }
        guard !running else { return }
        let machineID = try String(contentsOfFile: "/etc/machine-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let files = FileManager.default
        func makeDirectory(_ path: String) throws {
            guard !files.fileExists(atPath: path) else { return }
            try files.createDirectory(atPath: path, withIntermediateDirectories: false)
            cleanups.append(("remove \(path)", { try FileManager.default.removeItem(atPath: path) }))
        }
        try makeDirectory("/run/systemd/journald.conf.d")
        let configuration = "/run/systemd/journald.conf.d/todod-test.conf"
        try "[Journal]\nStorage=persistent\n".write(toFile: configuration, atomically: false, encoding: .utf8)
        cleanups.append(("remove \(configuration)", { try? FileManager.default.removeItem(atPath: configuration) }))
        try makeDirectory("/run/systemd/journal")
        _ = files.createFile(atPath: "/run/systemd/journal/flushed", contents: nil)
        try makeDirectory("/var/log/journal")
        let journalDirectory = "/var/log/journal/" + machineID
        if files.fileExists(atPath: journalDirectory) {
            let before = Set(try files.contentsOfDirectory(atPath: journalDirectory))
            cleanups.append(("remove the test's journal files", {
                for file in try FileManager.default.contentsOfDirectory(atPath: journalDirectory) where !before.contains(file) {
                    try FileManager.default.removeItem(atPath: journalDirectory + "/" + file)
                }
            }))
        } else {
            cleanups.append(("remove \(journalDirectory)", { try? FileManager.default.removeItem(atPath: journalDirectory) }))
        }
        let notify = try NotifySocket(path: runtimeDirectory + "/test-journald-notify.sock")
        defer { notify.close() }
        let journald = try ChildProcess("/lib/systemd/systemd-journald", [], environment: ["NOTIFY_SOCKET": notify.path])
        cleanups.append(("stop systemd-journald", { journald.stopNow() }))
        do {
            _ = try await notify.awaitMessage(containing: "READY=1")
        } catch {
            throw TestFailure("systemd-journald did not get ready: \(error)\n\(journald.output)")
        }
    }

    /// The service's journal as the user reads it (`journalctl --user -u UNIT`), entry by entry,
    /// once journald has written everything it was sent (`journalctl --sync`).
    func userJournal(unit: String) async throws -> [[String: Any]] {
        let synced = try await run("/usr/bin/journalctl", ["--sync"])
        guard synced.status == 0 else { throw TestFailure("journalctl --sync: \(synced.stderr)") }
        let read = try await runAsUser("/usr/bin/journalctl", ["--user", "-u", unit, "-o", "json", "--no-pager", "-q"])
        guard read.status == 0 else { throw TestFailure("journalctl --user -u \(unit): \(read.stderr)") }
        return try read.lines.map(jsonObject)
    }

    /// What the manager printed and logged so far (for failure messages).
    var managerOutput: String {
        _ = try? runNow("/usr/bin/journalctl", ["--sync"])
        let logged = (try? runNow("/usr/bin/journalctl", ["-q", "--no-pager", "_UID=\(uid)"]).output) ?? ""
        return (manager?.output ?? "") + "\n" + logged
    }

    /// Runs a program as the user, with the user's environment only.
    func runAsUser(_ program: String, _ arguments: [String], timeout: TimeInterval = 60) async throws -> CommandResult {
        try await run(
            "/usr/bin/setpriv",
            ["--reuid=\(uid)", "--regid=\(gid)", "--init-groups", "/usr/bin/env", "-i"]
                + environment.map { "\($0)=\($1)" }.sorted() + [program] + arguments,
            timeout: timeout)
    }

    /// `systemctl --user …` as the user; fails unless it succeeds.
    @discardableResult
    func systemctl(_ arguments: String...) async throws -> CommandResult {
        let result = try await runAsUser("/usr/bin/systemctl", ["--user", "--no-pager"] + arguments)
        guard result.status == 0 else {
            throw TestFailure("systemctl --user \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)\n\(managerOutput)")
        }
        return result
    }

    /// Properties of a unit (`systemctl --user show -p …`).
    func show(_ unit: String, _ properties: String...) async throws -> [String: String] {
        let result = try await systemctl(["show", unit] + properties.flatMap { ["-p", $0] })
        var values: [String: String] = [:]
        for line in result.lines {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    private func systemctl(_ arguments: [String]) async throws -> CommandResult {
        let result = try await runAsUser("/usr/bin/systemctl", ["--user", "--no-pager"] + arguments)
        guard result.status == 0 else { throw TestFailure("systemctl --user \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)") }
        return result
    }

    /// Stops the manager (SIGTERM: it stops its units and exits), kills whatever is left in its
    /// cgroup, and undoes the setup: cgroups, runtime directory, the user and its home, /run/systemd.
    func shutdown() async throws {
        var problems: [String] = []
        if let manager {
            manager.signal(SIGTERM)
            do { _ = try await manager.waitForExit(timeout: 60) } catch { problems.append("\(error)") }
        }
        notify?.close()
        let cgroups = cgroups
        let cleanups = cleanups
        problems += await (try? blocking {
            var problems: [String] = []
            for cgroup in cgroups { SystemdUserManager.killAll(in: cgroup) }
            for cleanup in cleanups.reversed() {
                do { try cleanup.undo() } catch { problems.append("\(cleanup.what): \(error)") }
            }
            return problems
        }) ?? ["cleanup did not run"]
        if !problems.isEmpty { throw TestFailure("shutting the user manager down: " + problems.joined(separator: "; ")) }
    }

    /// Ends every process left in a cgroup v2 subtree (cgroup.kill), and waits until it is empty.
    private static func killAll(in cgroup: String) {
        let kill = cgroup + "/cgroup.kill"
        guard FileManager.default.fileExists(atPath: kill) else { return }
        try? "1".write(toFile: kill, atomically: false, encoding: .utf8)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let events = (try? String(contentsOfFile: cgroup + "/cgroup.events", encoding: .utf8)) ?? ""
            if events.contains("populated 0") { return }
            usleep(20_000)
        }
    }

    /// Removes a cgroup and the ones the manager made below it, deepest first.
    private static func removeCgroup(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        var directories: [String] = []
        if let walker = FileManager.default.enumerator(atPath: path) {
            for case let relative as String in walker {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isDirectory), isDirectory.boolValue {
                    directories.append(path + "/" + relative)
                }
            }
        }
        for directory in directories.sorted(by: { $0.count > $1.count }) + [path] {
            guard rmdir(directory) == 0 || errno == ENOENT else {
                throw TestFailure("cannot remove the cgroup \(directory): errno \(errno)")
            }
        }
    }
}
