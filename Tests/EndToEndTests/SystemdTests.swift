import Foundation
import TestHarness
import Testing

/// todod under systemd for real: socket activation through `systemd-socket-activate`, and a
/// real user manager running the units that `make install` installs. Serialized: the
/// user-manager tests share /run/systemd, and each is heavy enough for 2 cores.
@Suite("todod under systemd", .serialized)
struct SystemdTests {
    @Test("systemd-socket-activate: the first connection starts todod on the passed socket; READY, WATCHDOG, STATUS and STOPPING arrive")
    func socketActivation() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/activated.sock"
        let ownSocketPath = directory + "/own.sock"
        let notify = try NotifySocket(path: directory + "/notify.sock")
        defer { notify.close() }
        let activator = try ChildProcess(
            "/usr/bin/systemd-socket-activate",
            ["--listen=\(socketPath)", "--setenv=NOTIFY_SOCKET=\(notify.path)", "--setenv=WATCHDOG_USEC=1000000",
             binaryDirectory + "/todod", "--socket", ownSocketPath, "--database", directory + "/todos.sqlite", "--log-level", "debug"],
            environment: ["PATH": "/usr/bin:/bin"])
        _ = try await activator.awaitLine(containing: "Listening on")

        // Nothing has connected: no todod yet, just the socket.
        let command = try String(contentsOfFile: "/proc/\(activator.pid)/comm", encoding: .utf8)
        #expect(command.hasPrefix("systemd-socket"))
        #expect(notify.received.isEmpty)

        let added = try await run("todoctl", ["add", "Water", "the", "plants"], environment: ["TODOD_SOCKET": socketPath])
        #expect(added.status == 0, "\(added.stderr)\n\(activator.output)")
        #expect(added.stdout == "added #1 Water the plants\n")

        // The activator made itself todod (same pid) on the first connection.
        _ = try await notify.awaitMessage(containing: "READY=1")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(activator.pid)/exe")
        #expect(executable.hasSuffix("/todod"))
        _ = try await activator.awaitLine(containing: "using the socket systemd passed")
        #expect(!FileManager.default.fileExists(atPath: ownSocketPath), "todod bound its own socket besides the passed one")
        _ = try await notify.awaitMessage(containing: "WATCHDOG=1")
        // todoctl's disconnect updates the status line with the new count.
        _ = try await notify.awaitMessage(containing: "1 open")

        let listed = try await run("todoctl", ["list", "--json"], environment: ["TODOD_SOCKET": socketPath])
        #expect(try jsonArray(listed.stdout).map { $0["title"] as? String } == ["Water the plants"], "\(listed.stdout)")

        activator.signal(SIGTERM)
        #expect(try await activator.waitForExit() == 0, "\(activator.output)")
        _ = try await notify.awaitMessage(containing: "STOPPING=1")
    }

    @Test("socket-activated with --exit-idle-after: it serves while its first client stays, and exits 0 once it has had none for that long")
    func idleExitAfterSocketActivation() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/activated.sock"
        let activator = try ChildProcess(
            "/usr/bin/systemd-socket-activate",
            ["--listen=\(socketPath)", binaryDirectory + "/todod", "--database", directory + "/todos.sqlite",
             "--exit-idle-after", "3s", "--log-level", "debug"],
            environment: ["PATH": "/usr/bin:/bin"])
        _ = try await activator.awaitLine(containing: "Listening on")
        // This client's connection starts todod, so a client is connected from its first moment;
        // it stays for longer than the limit, and todod goes on answering.
        var client: RawConnection? = try RawConnection(path: socketPath)
        _ = try await client?.awaitLine(containing: "responseHello")
        try await Task.sleep(for: .seconds(4))
        let status = try await run("todoctl", ["status", "--json"], environment: ["TODOD_SOCKET": socketPath])
        #expect(status.status == 0, "\(status.stderr)\n\(activator.output)")
        #expect(try jsonObject(status.stdout)["connectedClients"] as? Int == 2, "\(status.stdout)")
        client = nil  // the last client leaves
        #expect(try await activator.waitForExit(timeout: 20) == 0, "\(activator.output)")
        _ = try await activator.awaitLine(containing: "no client for 3.0 seconds; exiting until the socket is used again")
    }

    @Test(
        "a real user manager: the socket starts the service on the first todoctl, it is active with a status, stops cleanly, starts again with its data",
        .enabled(if: SystemdUserManager.unavailableReason == nil, "needs root, and a machine where systemd is not PID 1"))
    func userManagerRunsTheInstalledUnits() async throws {
        try await SystemdUserManager.with { user in
            let prefix = try await installForTest(user)
            try await user.start(unitPath: prefix + "/lib/systemd/user")

            try await user.systemctl("enable", "--now", "todod.socket")
            let socketState = try await user.show("todod.socket", "ActiveState")
            #expect(socketState["ActiveState"] == "active")
            let serviceState = try await user.show("todod.service", "ActiveState")
            #expect(serviceState["ActiveState"] == "inactive")

            let added = try await user.runAsUser(prefix + "/bin/todoctl", ["add", "Buy", "milk"])
            #expect(added.status == 0, "\(added.stderr)\n\(user.managerOutput)")
            #expect(added.stdout == "added #1 Buy milk\n")
            let started = try await user.show("todod.service", "MainPID", "ActiveState")
            let pid = try #require(started["MainPID"].flatMap(Int32.init))
            #expect(pid != 0, "the first todoctl did not start todod.service: \(started)")

            // `start` waits for the running start job, so for READY=1 (Type=notify); nothing new starts.
            try await user.systemctl("start", "todod.service")
            let running = try await user.show("todod.service", "ActiveState", "SubState", "Type", "StatusText", "MainPID", "NRestarts")
            #expect(running["ActiveState"] == "active")
            #expect(running["SubState"] == "running")
            #expect(running["Type"] == "notify")
            #expect(running["MainPID"] == "\(pid)")
            #expect(running["NRestarts"] == "0")
            #expect(running["StatusText"]?.contains("todos") == true, "StatusText: \(running["StatusText"] ?? "none")")

            // The daemon systemd runs is the one answering, on the default paths of a user service.
            let status = try jsonObject(try await user.runAsUser(prefix + "/bin/todoctl", ["status", "--json"]).stdout)
            #expect((status["processID"] as? Int).map(Int32.init) == pid)
            #expect(status["databasePath"] as? String == user.home + "/.local/share/todod/todos.sqlite")
            #expect(status["socketPath"] as? String == user.runtimeDirectory + "/todod.sock")

            try await user.systemctl("stop", "todod.service")
            let stopped = try await user.show("todod.service", "ActiveState", "Result", "ExecMainCode", "ExecMainStatus")
            #expect(stopped["ActiveState"] == "inactive")
            #expect(stopped["Result"] == "success")
            #expect(stopped["ExecMainCode"] == "1", "todod did not exit by itself (CLD_EXITED): \(stopped)")
            #expect(stopped["ExecMainStatus"] == "0")
            let socketStateAfter = try await user.show("todod.socket", "ActiveState")
            #expect(socketStateAfter["ActiveState"] == "active")

            // The next call starts it again, on the same data.
            let listed = try await user.runAsUser(prefix + "/bin/todoctl", ["list", "--json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(try jsonArray(listed.stdout).map { $0["title"] as? String } == ["Buy milk"], "\(listed.stdout)")
            let again = try #require(try await user.show("todod.service", "MainPID")["MainPID"].flatMap(Int32.init))
            #expect(again != 0 && again != pid)

            // Its logs are in the journal, with priorities and todod's own fields, for `journalctl --user -u todod`.
            let journal = try await user.userJournal(unit: "todod.service")
            let first = journal.filter { $0["_PID"] as? String == "\(pid)" }
            let listening = try #require(first.first { $0["MESSAGE"] as? String == "todod 0.1.0 listening" },
                                         "no \"listening\" entry of todod \(pid) in:\n\(journal.map { $0["MESSAGE"] ?? "" })")
            #expect(listening["PRIORITY"] as? String == "6")
            #expect(listening["SYSLOG_IDENTIFIER"] as? String == "todod")
            #expect(listening["TODOD_SOCKET"] as? String == user.runtimeDirectory + "/todod.sock")
            #expect((listening["CODE_FILE"] as? String)?.hasSuffix("Daemon.swift") == true)
            #expect(listening["_TRANSPORT"] as? String == "journal", "not sent with sd_journal_send")
            #expect(first.contains { $0["MESSAGE"] as? String == "todod stopped" }, "the stop was not logged")
            #expect(journal.contains { $0["_PID"] as? String == "\(again)" })
        }
    }

    @Test(
        "a real user manager restarts a todod that stops feeding the watchdog (SIGSTOP)",
        .enabled(if: SystemdUserManager.unavailableReason == nil, "needs root, and a machine where systemd is not PID 1"))
    func watchdogRestartsAStoppedDaemon() async throws {
        try await SystemdUserManager.with { user in
            let prefix = try await installForTest(user)
            // 10 s (fed every 5): room for a todod on a loaded machine, whose feeds may come late.
            try user.writeUserFile(".config/systemd/user/todod.service.d/watchdog.conf", "[Service]\nWatchdogSec=10\n")
            try await user.start(unitPath: prefix + "/lib/systemd/user")
            try await user.systemctl("enable", "--now", "todod.socket")
            let added = try await user.runAsUser(prefix + "/bin/todoctl", ["add", "Survive", "a", "hang"])
            #expect(added.status == 0, "\(added.stderr)")
            try await user.systemctl("start", "todod.service")
            let before = try await user.show("todod.service", "MainPID", "NRestarts", "WatchdogUSec", "ActiveState")
            #expect(before["WatchdogUSec"] == "10s")
            #expect(before["ActiveState"] == "active")
            let pid = try #require(before["MainPID"].flatMap(Int32.init))
            let restartsBefore = try #require(before["NRestarts"].flatMap(Int.init))

            #expect(kill(pid, SIGSTOP) == 0)
            // systemd has no event to wait on from outside: poll its state, briefly, for a bounded time
            // (10 s watchdog + TimeoutAbortSec=10 + the restart; a loaded machine takes many times that).
            var state: [String: String] = [:]
            let deadline = Date().addingTimeInterval(180)
            while Date() < deadline {
                state = try await user.show("todod.service", "MainPID", "NRestarts", "ActiveState")
                if let restarts = state["NRestarts"].flatMap(Int.init), restarts > restartsBefore,
                   state["ActiveState"] == "active", let newPID = state["MainPID"].flatMap(Int32.init), newPID != 0, newPID != pid {
                    break
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(state["ActiveState"] == "active", "systemd did not restart the stopped todod within 180 s: \(state)")
            let restarts = state["NRestarts"].flatMap(Int.init) ?? 0
            #expect(restarts > restartsBefore, "\(state)")
            #expect(state["MainPID"] != "\(pid)")
            #expect(kill(pid, 0) == -1 && errno == ESRCH, "the stopped todod \(pid) is still there")
            // The watchdog is what ended it: the manager says so. (Not the number of restarts: on a
            // loaded machine a todod that starts slowly may miss its watchdog once more.)
            let managerLog = user.managerOutput
            #expect(managerLog.contains("todod.service: Watchdog timeout"), "\(managerLog)")

            let listed = try await user.runAsUser(prefix + "/bin/todoctl", ["list", "--json"])
            #expect(try jsonArray(listed.stdout).map { $0["title"] as? String } == ["Survive a hang"], "\(listed.stdout)")
        }
    }

    /// `make install PREFIX=~/prefix` of the binaries under test, checked: the files are where the
    /// issue says, the units point at PREFIX/bin, and `systemd-analyze --user verify` is clean.
    func installForTest(_ user: SystemdUserManager) async throws -> String {
        let prefix = user.home + "/prefix"
        let installed = try await makeInstall(prefix: prefix)
        guard installed.status == 0 else { throw TestFailure("make install failed (\(installed.status)):\n\(installed.stdout)\n\(installed.stderr)") }
        for path in ["bin/todod", "bin/todoctl", "lib/systemd/user/todod.service", "lib/systemd/user/todod.socket",
                     "share/man/man1/todod.1", "share/man/man1/todoctl.1",
                     "share/bash-completion/completions/todoctl", "share/zsh/vendor-completions/_todoctl",
                     "share/fish/vendor_completions.d/todoctl.fish"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + path), "make install did not install \(path)")
        }
        let service = try String(contentsOfFile: prefix + "/lib/systemd/user/todod.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=\(prefix)/bin/todod\n"))
        #expect(!service.contains("@BINDIR@"))
        let verified = try await user.runAsUser(
            "/usr/bin/systemd-analyze",
            ["--user", "verify", "--man=no", prefix + "/lib/systemd/user/todod.socket", prefix + "/lib/systemd/user/todod.service"])
        #expect(verified.status == 0 && verified.stderr.isEmpty && verified.stdout.isEmpty,
                "systemd-analyze --user verify: \(verified.stdout)\(verified.stderr)")
        return prefix
    }
}

/// The Debian package `make deb` builds, given as TODOD_DEB (`make test` and `make test-package` do).
@Suite(
    "the Debian package",
    .enabled(if: ProcessInfo.processInfo.environment["TODOD_DEB"] != nil, "set TODOD_DEB to a .deb: `make test` does"))
struct SystemdPackageTests {
    let deb = ProcessInfo.processInfo.environment["TODOD_DEB"] ?? ""

    @Test("its files: binaries in /usr/bin, user units, gzipped man pages, completions; all root's")
    func fileList() async throws {
        // Unpacking 37 MB beside a loaded suite once took over the default 30 s.
        let listing = try await run("/usr/bin/dpkg-deb", ["--contents", deb], timeout: 120)
        #expect(listing.status == 0, "\(listing.stderr)")
        // "-rwxr-xr-x root/root 12345 2026-11-22 04:00 ./usr/bin/todod"
        let entries = listing.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let paths = Set(entries.compactMap { $0.last.map(String.init) })
        for path in ["./usr/bin/todod", "./usr/bin/todoctl",
                     "./usr/lib/systemd/user/todod.service", "./usr/lib/systemd/user/todod.socket",
                     "./usr/share/man/man1/todod.1.gz", "./usr/share/man/man1/todoctl.1.gz",
                     "./usr/share/bash-completion/completions/todoctl", "./usr/share/bash-completion/completions/todod",
                     "./usr/share/zsh/vendor-completions/_todoctl", "./usr/share/zsh/vendor-completions/_todod",
                     "./usr/share/fish/vendor_completions.d/todoctl.fish", "./usr/share/fish/vendor_completions.d/todod.fish"] {
            #expect(paths.contains(path), "the package lacks \(path)")
        }
        #expect(entries.allSatisfy { $0.count > 1 && $0[1] == "root/root" }, "files not owned by root:\n\(listing.stdout)")
        #expect(entries.filter { $0.first?.hasPrefix("-") == true && $0.last?.hasPrefix("./usr/bin/") == true }
            .allSatisfy { $0[0] == "-rwxr-xr-x" })
    }

    @Test("its control fields: name, the version todoctl reports, this architecture, Depends on libsystemd0 and libsqlite3-0")
    func controlFields() async throws {
        let fields = try await run("/usr/bin/dpkg-deb", ["--field", deb, "Package", "Version", "Architecture", "Depends", "Maintainer", "Description"])
        #expect(fields.status == 0, "\(fields.stderr)")
        var values: [String: String] = [:]
        for line in fields.lines {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" ") else { continue }
            values[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        #expect(values["Package"] == "todod")
        let architecture = try await run("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(values["Architecture"] == architecture)
        let version = try #require(values["Version"])
        #expect(URL(fileURLWithPath: deb).lastPathComponent == "todod_\(version)_\(architecture).deb")
        let packages = (values["Depends"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
        }
        #expect(packages.contains("libsystemd0"), "Depends: \(values["Depends"] ?? "")")
        #expect(packages.contains("libsqlite3-0"), "Depends: \(values["Depends"] ?? "")")
        #expect(packages.contains("libc6"))
        #expect(!packages.contains { $0.contains("swift") })
        #expect(values["Maintainer"]?.isEmpty == false)
        #expect(values["Description"]?.isEmpty == false)

        let root = try extract()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let reported = try await runClean(root + "/usr/bin/todoctl", ["--version"])
        #expect(reported.stdout == version + "\n")
    }

    @Test("its units start /usr/bin/todod, and its man pages are man pages")
    func unitsAndManPages() async throws {
        let root = try extract()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let service = try String(contentsOfFile: root + "/usr/lib/systemd/user/todod.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=/usr/bin/todod\n"))
        #expect(!service.contains("@BINDIR@"))
        let socket = try String(contentsOfFile: root + "/usr/lib/systemd/user/todod.socket", encoding: .utf8)
        #expect(socket.contains("ListenStream=%t/todod.sock"))
        for tool in ["todod", "todoctl"] {
            let page = try await run("/bin/gzip", ["-dc", root + "/usr/share/man/man1/\(tool).1.gz"])
            #expect(page.stdout.contains(".Dt \(tool.uppercased()) 1"))
            #expect(page.stdout.contains(".Sh NAME"))
        }
        let completion = try String(contentsOfFile: root + "/usr/share/bash-completion/completions/todoctl", encoding: .utf8)
        #expect(completion.contains("complete"))
    }

    @Test("its binaries need no Swift toolchain: todoctl and todod run, serve and answer in a clean environment")
    func binariesRunWithoutTheToolchain() async throws {
        let root = try extract()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // todoctl is linked static (Package.swift says why): it loads no library at all.
        let todoctl = try await run("/usr/bin/ldd", [root + "/usr/bin/todoctl"])
        #expect((todoctl.stdout + todoctl.stderr).contains("not a dynamic executable"), "todoctl loads:\n\(todoctl.stdout)")
        let todod = try await run("/usr/bin/ldd", [root + "/usr/bin/todod"])
        #expect(todod.status == 0)
        #expect(!todod.stdout.contains("swift") && !todod.stdout.contains("Foundation") && !todod.stdout.contains("not found"),
                "todod loads:\n\(todod.stdout)")
        // As root, hide the toolchain itself in a mount namespace of the daemon's own.
        let hide = hideToolchain()
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notify = try NotifySocket(path: directory + "/notify.sock")
        defer { notify.close() }
        let socketPath = directory + "/todod.sock"
        let daemon = try ChildProcess(
            hide.program,
            hide.arguments + ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=\(directory)", "NOTIFY_SOCKET=\(notify.path)",
                              root + "/usr/bin/todod", "--socket", socketPath, "--database", directory + "/todos.sqlite"],
            environment: ["PATH": "/usr/bin:/bin"])
        _ = try await notify.awaitMessage(containing: "READY=1")
        let client = hide.arguments + ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "TODOD_SOCKET=\(socketPath)", root + "/usr/bin/todoctl"]
        let added = try await run(hide.program, client + ["add", "Packaged", "and", "working"])
        #expect(added.status == 0, "\(added.stderr)\n\(daemon.output)")
        let listed = try await run(hide.program, client + ["list", "--json"])
        #expect(try jsonArray(listed.stdout).map { $0["title"] as? String } == ["Packaged and working"], "\(listed.stdout)")
        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0, "\(daemon.output)")
    }

    @Test("its binaries carry none of the tests' hooks: no TODOD_TEST_ variable read, no database page cap, no core stall")
    func binariesCarryNoTestHook() throws {
        let directory = try extract()
        for program in ["todod", "todoctl"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/usr/bin/" + program))
            for hook in ["TODOD_TEST_", "max_page_count", "wedged for the watchdog"] {
                #expect(bytes.range(of: Data(hook.utf8)) == nil, "\(program) holds \"\(hook)\"")
            }
        }
    }

    /// The package's files, unpacked into a new directory.
    private func extract() throws -> String {
        let directory = try makeTemporaryDirectory()
        let extracted = try runNow("/usr/bin/dpkg-deb", ["--extract", deb, directory])
        guard extracted.status == 0 else { throw TestFailure("dpkg-deb --extract: \(extracted.output)") }
        return directory
    }

    /// How to run a command with the Swift toolchain out of sight: as root, in a mount namespace
    /// with an empty tmpfs over the toolchain's directory (found from `swift` on the PATH); else
    /// plainly (env -i still keeps its PATH and LD_LIBRARY_PATH away).
    private func hideToolchain() -> (program: String, arguments: [String]) {
        let plain = (program: "/usr/bin/env", arguments: [String]())
        guard getuid() == 0,
              let swift = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
                  .map({ $0 + "/swift" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return plain }
        // …/usr/bin/swift → the toolchain is …; never hide /usr itself.
        let toolchain = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        guard toolchain != "/", !toolchain.isEmpty, !["/usr", "/usr/local"].contains(toolchain) else { return plain }
        return ("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c",
                                     "mount -t tmpfs none \"$0\" && exec \"$@\"", toolchain])
    }
}
