import Foundation
import Testing

/// `todod --ical-dir` synced with a real CalDAV server (Radicale on 127.0.0.1, started
/// here) by the real vdirsyncer, as README's "to your phone" set-up does.
@Suite("todod's iCalendar directory with vdirsyncer and Radicale")
struct CalendarSyncTests {
    /// A daemon keeping its todos in a new iCalendar directory, with one, two and three in it.
    private func daemonWithThreeTodosInAVdir() async throws -> (DaemonProcess, String) {
        let vdir = try makeTemporaryDirectory() + "/vdir"
        let daemon = try await DaemonProcess.start(arguments: ["--ical-dir", vdir])
        for title in ["one", "two", "three"] {
            let added = try await daemon.todoctl("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        return (daemon, vdir)
    }

    /// Radicale on a port the system chose, without authentication, its data in `directory`;
    /// returns it and the collection's URL, made with MKCALENDAR.
    private func startRadicale(in directory: String) async throws -> (BackgroundProcess, String) {
        let config = directory + "/radicale.conf"
        try """
            [server]
            hosts = 127.0.0.1:0
            [auth]
            type = none
            [rights]
            type = owner_only
            [storage]
            filesystem_folder = \(directory)/collections
            [logging]
            level = info
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let radicale = try BackgroundProcess("/usr/bin/radicale", ["--config", config], readingErrors: true)
        var port = ""
        while port.isEmpty {
            let line = try await radicale.readLine()
            if line.contains("Listening on"), let colon = line.lastIndex(of: ":") {
                port = String(line[line.index(after: colon)...].prefix { $0.isNumber })
            }
        }
        // Its log goes on (a line per request): read to the end, so that it never blocks on a full pipe.
        Task.detached { while (try? await radicale.readLine(timeout: 3_600)) != nil {} }
        let url = "http://127.0.0.1:\(port)/user/tasks/"
        let made = try await run("/usr/bin/curl", ["--fail", "-s", "-u", "user:x", "-X", "MKCALENDAR", url])
        #expect(made.status == 0, "MKCALENDAR: \(made.stderr)")
        return (radicale, url)
    }

    /// README's pair: `vdir` (todod's --ical-dir) and the collection at `url`; returns the file's path.
    private func vdirsyncerConfiguration(in directory: String, vdir: String, url: String) throws -> String {
        let config = directory + "/vdirsyncer.conf"
        try """
            [general]
            status_path = "\(directory)/status/"

            [pair todod]
            a = "todod_local"
            b = "todod_caldav"
            collections = null

            [storage todod_local]
            type = "filesystem"
            path = "\(vdir)/"
            fileext = ".ics"

            [storage todod_caldav]
            type = "caldav"
            url = "\(url)"
            username = "user"
            password = "x"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        return config
    }

    private func vdirsyncer(_ config: String, _ arguments: String...) async throws {
        let result = try await run("/usr/bin/vdirsyncer", ["-c", config] + arguments, input: "")
        #expect(result.status == 0, "vdirsyncer \(arguments): \(result.stdout) \(result.stderr)")
    }

    /// The phone's change: `vtodo` (as Radicale held it, changed) stamped LAST-MODIFIED now and PUT at `item`.
    private func putAsPhone(_ vtodo: String, at item: String) async throws {
        let changed = vtodo.replacingOccurrences(of: #"LAST-MODIFIED:\d{8}T\d{6}Z"#, with: "LAST-MODIFIED:\(Self.stamp(Date()))", options: .regularExpression)
        let put = try await run("/usr/bin/curl", ["--fail", "-s", "-u", "user:x", "-X", "PUT", "-H", "Content-Type: text/calendar",
                                                 "--data-binary", "@-", item], input: changed)
        #expect(put.status == 0, "PUT: \(put.stderr)")
    }

    @Test("A todo added with todoctl reaches Radicale after a sync; completed there by a PUT, it is completed in todod after the next")
    func radicaleRoundTrip() async throws {
        let directory = try makeTemporaryDirectory()
        let (radicale, url) = try await startRadicale(in: directory)
        // Radicale waits on its clients' keep-alive connections after SIGTERM.
        defer { radicale.stop(signal: SIGKILL) }
        let vdir = directory + "/vdir"
        let config = try vdirsyncerConfiguration(in: directory, vdir: vdir, url: url)
        let daemon = try await DaemonProcess.start(arguments: ["--ical-dir", vdir])
        let added = try await daemon.todoctl("add", "Buy milk", "--json")
        let id = try #require(try jsonObject(added.stdout)["id"] as? String)
        try await vdirsyncer(config, "discover")
        try await vdirsyncer(config, "sync")
        let item = url + id + ".ics"
        let remote = try await run("/usr/bin/curl", ["--fail", "-s", "-u", "user:x", item])
        #expect(remote.status == 0)
        #expect(remote.stdout.contains("SUMMARY:Buy milk"))
        #expect(remote.stdout.contains("STATUS:NEEDS-ACTION"))

        // The phone: the same VTODO, completed now.
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
        defer { events.stopNow() }
        try await awaitClients(2, on: daemon)
        let completed = remote.stdout.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:\(Self.stamp(Date()))")
        try await putAsPhone(completed, at: item)
        try await vdirsyncer(config, "sync")
        // An import's change is told by what it did, as any change is.
        _ = try await events.awaitLine(containing: "done #1 Buy milk")
        let list = try await daemon.todoctl("list", "--completed")
        #expect(list.stdout.contains("Buy milk"))
        try await daemon.stop()
    }

    @Test("A todo made on the phone (a PUT to Radicale) reaches todod at the next sync: vdirsyncer links its new file into the directory")
    func phoneCreation() async throws {
        let directory = try makeTemporaryDirectory()
        let (radicale, url) = try await startRadicale(in: directory)
        defer { radicale.stop(signal: SIGKILL) }
        let vdir = directory + "/vdir"
        let config = try vdirsyncerConfiguration(in: directory, vdir: vdir, url: url)
        let daemon = try await DaemonProcess.start(arguments: ["--ical-dir", vdir])
        try await vdirsyncer(config, "discover")
        try await vdirsyncer(config, "sync")
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
        defer { events.stopNow() }
        try await awaitClients(2, on: daemon)

        let now = Self.stamp(Date())
        let phone = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//Tasks//EN\r\nBEGIN:VTODO\r\nUID:phone-made-1\r\n"
            + "DTSTAMP:\(now)\r\nLAST-MODIFIED:\(now)\r\nSUMMARY:Call the plumber\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let put = try await run("/usr/bin/curl", ["--fail", "-s", "-u", "user:x", "-X", "PUT", "-H", "Content-Type: text/calendar",
                                                 "--data-binary", "@-", url + "phone-made-1.ics"], input: phone)
        #expect(put.status == 0, "PUT: \(put.stderr)")
        try await vdirsyncer(config, "sync")
        _ = try await events.awaitLine(containing: "added #1 Call the plumber")
        let list = try await daemon.todoctl("list")
        #expect(list.lines == ["#1 [ ]   Call the plumber"], "\(list.stdout)")
        try await daemon.stop()
    }

    @Test("A todo due at a time reaches Radicale as that local time (a floating DUE), a whole day as DUE;VALUE=DATE; the phone's DUE in UTC comes back as its local time")
    func timesOfDay() async throws {
        let directory = try makeTemporaryDirectory()
        let (radicale, url) = try await startRadicale(in: directory)
        defer { radicale.stop(signal: SIGKILL) }
        let vdir = directory + "/vdir"
        let config = try vdirsyncerConfiguration(in: directory, vdir: vdir, url: url)
        // Berlin is UTC+1 in December: a local time is not the instant's UTC hour.
        let env = ["TZ": "Europe/Berlin"]
        let daemon = try await DaemonProcess.start(arguments: ["--ical-dir", vdir], environment: env)
        let timed = try jsonObject(try await daemon.todoctl("add", "Call the bank", "due:2026-12-24T15:00", "--json", environment: env).stdout)
        let whole = try jsonObject(try await daemon.todoctl("add", "Pay rent", "due:2026-12-24", "--json", environment: env).stdout)
        try await vdirsyncer(config, "discover")
        try await vdirsyncer(config, "sync")
        let item = url + (try #require(timed["id"] as? String)) + ".ics"
        let remote = try await run("/usr/bin/curl", ["--fail", "-s", "-u", "user:x", item])
        #expect(remote.stdout.contains("DUE:20261224T150000\r\n"), "\(remote.stdout)")
        let rent = try await run("/usr/bin/curl", ["--fail", "-s", "-u", "user:x", url + (try #require(whole["id"] as? String)) + ".ics"])
        #expect(rent.stdout.contains("DUE;VALUE=DATE:20261224\r\n"), "\(rent.stdout)")

        // The phone moves the call to 09:00 UTC, 10:00 in Berlin.
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment.merging(env) { $1 })
        defer { events.stopNow() }
        try await awaitClients(2, on: daemon)
        try await putAsPhone(remote.stdout.replacingOccurrences(of: "DUE:20261224T150000", with: "DUE:20261224T090000Z"), at: item)
        try await vdirsyncer(config, "sync")
        _ = try await events.awaitLine(containing: "#1 Call the bank")
        let shown = try await daemon.todoctl("show", "1", environment: env)
        #expect(shown.stdout.contains("2026-12-24 10:00"), "\(shown.stdout)")
        try await daemon.stop()
    }

    @Test("A file linked into the directory (written as a temporary file, ln to UID.ics, the temporary removed) is imported at once")
    func linkedFile() async throws {
        let (daemon, vdir, events) = try await startKeepingCalendar()
        defer { events.stopNow() }
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:linked-1\r\nSUMMARY:Linked in\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try text.write(toFile: vdir + "/tmpXYZ", atomically: false, encoding: .utf8)
        let linked = try await run("/bin/ln", [vdir + "/tmpXYZ", vdir + "/linked-1.ics"])
        #expect(linked.status == 0, "ln: \(linked.stderr)")
        #expect(try await run("/bin/rm", [vdir + "/tmpXYZ"]).status == 0)
        _ = try await events.awaitLine(containing: "added #1 Linked in")
        try await daemon.stop()
        #expect(!daemon.log.contains("does not parse"), "\(daemon.log)")
    }

    @Test("A file still being written when it is made is read once it is closed, and not logged as broken")
    func fileWrittenSlowly() async throws {
        let (daemon, vdir, events) = try await startKeepingCalendar()
        defer { events.stopNow() }
        let path = vdir + "/slow-1.ics"
        // As an editor or a shell's > writes: open(O_CREAT), a write, later the rest, close.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(descriptor >= 0, "open: errno \(errno)")
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try file.write(contentsOf: Data("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:slow-1\r\n".utf8))
        try await daemon.awaitLog(containing: "it is read when it is closed")
        try file.write(contentsOf: Data("SUMMARY:Written slowly\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8))
        try file.close()
        _ = try await events.awaitLine(containing: "added #1 Written slowly")
        try await daemon.stop()
        #expect(!daemon.log.contains("does not parse"), "\(daemon.log)")
    }

    @Test("A file that does not parse is logged with its name and left alone")
    func unparsable() async throws {
        let (daemon, vdir, events) = try await startKeepingCalendar()
        defer { events.stopNow() }
        let broken = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:no end\r\n"
        try broken.write(toFile: vdir + "/broken.ics", atomically: false, encoding: .utf8)
        // The watcher takes files in the order they changed: once the good one is imported,
        // the broken one was read before it.
        let good = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:good-1\r\nSUMMARY:Fine one\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try good.write(toFile: vdir + "/good-1.ics", atomically: false, encoding: .utf8)
        _ = try await events.awaitLine(containing: "added #1 Fine one")
        let exitStatus = try await daemon.stop()
        #expect(exitStatus == 0)
        #expect(daemon.log.contains("broken.ics"), "\(daemon.log)")
        #expect(daemon.log.contains("does not parse"))
        #expect(daemon.log.contains("a VTODO has no END:VTODO"))
        let left = try String(contentsOfFile: vdir + "/broken.ics", encoding: .utf8)
        #expect(left == broken)
    }

    @Test("A subtask's file names its parent with RELATED-TO: the UID an imported parent came with, a todod parent's id")
    func subtaskFiles() async throws {
        let directory = try makeTemporaryDirectory()
        let vdir = directory + "/vdir"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let garden = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:garden-1\r\nSUMMARY:Garden\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try garden.write(toFile: vdir + "/garden-1.ics", atomically: false, encoding: .utf8)
        let daemon = try await DaemonProcess.start(arguments: ["--ical-dir", vdir])
        let added = try await daemon.todoctl("add", "Mow", "--parent", "1")
        #expect(added.status == 0, "\(added.stderr)")
        let added2 = try await daemon.todoctl("add", "Paint")
        #expect(added2.status == 0, "\(added2.stderr)")
        let added3 = try await daemon.todoctl("add", "Buy brush", "--parent", "3")
        #expect(added3.status == 0, "\(added3.stderr)")
        let paint = try jsonObject(try await daemon.todoctl("show", "3", "--json").stdout)["id"] as? String ?? ""
        // Files are written as changes commit, before the asker hears its answer.
        func file(titled title: String) throws -> String {
            for name in try FileManager.default.contentsOfDirectory(atPath: vdir) {
                let text = try String(contentsOfFile: vdir + "/" + name, encoding: .utf8)
                if text.contains("SUMMARY:\(title)\r\n") { return text }
            }
            throw TestFailure("no file holds \(title)")
        }
        let mow = try file(titled: "Mow")
        #expect(mow.contains("RELATED-TO:garden-1\r\n"))
        let brush = try file(titled: "Buy brush")
        #expect(brush.contains("RELATED-TO:\(paint.lowercased())\r\n"))
        let edited = try await daemon.todoctl("edit", "4", "--no-parent")
        #expect(edited.status == 0, "\(edited.stderr)")
        let brushAlone = try file(titled: "Buy brush")
        #expect(!brushAlone.contains("RELATED-TO"))
        try await daemon.stop()
    }

    @Test("The whole directory removed (rm -rf) deletes no todo: todod says so and stops keeping it")
    func directoryRemoved() async throws {
        let (daemon, vdir) = try await daemonWithThreeTodosInAVdir()
        // One file removed by another program (vdirsyncer after a delete on the phone) deletes its todo.
        let one = try FileManager.default.contentsOfDirectory(atPath: vdir).first { name in
            (try? String(contentsOfFile: vdir + "/" + name, encoding: .utf8))?.contains("SUMMARY:one\r\n") == true
        }
        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
        defer { events.stopNow() }
        try await awaitClients(2, on: daemon)
        try FileManager.default.removeItem(atPath: vdir + "/" + (one ?? "missing"))
        _ = try await events.awaitLine(containing: "deleted #1 one")
        _ = try await daemon.todoctl("restore", "1")
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir)
        #expect(files.count == 3, "\(files)")
        let result = try await run("/bin/rm", ["-rf", vdir])
        #expect(result.status == 0, "\(result.stderr)")
        try await daemon.awaitLog(containing: "iCalendar files went away with their directory; no todo was deleted")
        let listed = try await daemon.todoctl("list")
        #expect(listed.lines.count == 3)
        let added = try await daemon.todoctl("add", "four")
        #expect(added.status == 0, "\(added.stderr)")
        try await daemon.stop()
        #expect(daemon.log.contains("the iCalendar directory was removed, moved away or unmounted"))
        #expect(!daemon.log.contains("cannot write an iCalendar file"))
    }

    @Test("Every file removed while the directory stays (rm -rf descheduled before its rmdir, a sync tool starting over) deletes no todo; the rmdir that follows stops todod keeping it")
    func directoryEmptiedBeforeItsRemoval() async throws {
        let (daemon, vdir) = try await daemonWithThreeTodosInAVdir()
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir)
        #expect(files.count == 3, "\(files)")
        // rm -rf's unlinks, then its rmdir only once todod's wait for quiet removals has ended:
        // the descheduling that made the whole-directory test delete every todo once under load.
        for name in files { try FileManager.default.removeItem(atPath: vdir + "/" + name) }
        try await daemon.awaitLog(containing: "every iCalendar file in the directory was removed")
        try FileManager.default.removeItem(atPath: vdir)
        try await daemon.awaitLog(containing: "the iCalendar directory was removed, moved away or unmounted")
        let listed = try await daemon.todoctl("list")
        #expect(listed.lines.count == 3, "\(listed.stdout)")
        try await daemon.stop()
        #expect(!daemon.log.contains("deleting a todo whose iCalendar file another program removed"), "\(daemon.log)")
    }

    @Test("A file over 1 MiB, or a pipe, is left alone with a line in the log; the others are imported")
    func oversizedAndPipes() async throws {
        let directory = try makeTemporaryDirectory()
        let vdir = directory + "/vdir"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let big = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:big\r\nSUMMARY:Big\r\nDESCRIPTION:" + String(repeating: "x", count: 2 << 20) + "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try big.write(toFile: vdir + "/big.ics", atomically: false, encoding: .utf8)
        #expect(mkfifo(vdir + "/pipe.ics", 0o600) == 0)
        let good = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:good-1\r\nSUMMARY:Fine one\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try good.write(toFile: vdir + "/good-1.ics", atomically: false, encoding: .utf8)
        let daemon = try await DaemonProcess.start(arguments: ["--ical-dir", vdir])
        let listed = try await daemon.todoctl("list")
        #expect(listed.stdout == "#1 [ ]   Fine one\n")
        try await daemon.stop()
        #expect(daemon.log.contains("an iCalendar file is larger than 1 MiB"))
        #expect(daemon.log.contains("big.ics"))
        #expect(daemon.log.contains("is not a regular file"))
    }

    @Test("A second file with a todo's UID is left alone, logged; a newer file written from an older revision wins, logged as both changed")
    func uidTakeoverAndBothChanged() async throws {
        let directory = try makeTemporaryDirectory()
        let vdir = directory + "/vdir"
        let daemon = try await DaemonProcess.start(arguments: ["--ical-dir", vdir])
        let added = try await daemon.todoctl("add", "one")
        #expect(added.status == 0, "\(added.stderr)")
        let id = (try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)["id"] as? String ?? "").lowercased()
        let own = vdir + "/\(id).ics"
        #expect(FileManager.default.fileExists(atPath: own))

        let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
        defer { events.stopNow() }
        try await awaitClients(2, on: daemon)
        func vtodo(_ summary: String, sequence: Int) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\nBEGIN:VTODO\r\nUID:\(id)\r\nSEQUENCE:\(sequence)\r\n"
                + "LAST-MODIFIED:20300101T000000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        }
        try vtodo("taken over", sequence: 9).write(toFile: vdir + "/dup.ics", atomically: false, encoding: .utf8)
        try await daemon.awaitLog(containing: "holds the UID of the todo in \(id).ics")
        try FileManager.default.removeItem(atPath: vdir + "/dup.ics")

        let edited2 = try await daemon.todoctl("edit", "1", "--title", "one, edited in todod")
        #expect(edited2.status == 0, "\(edited2.stderr)")
        _ = try await events.awaitLine(containing: "edited #1 one, edited in todod")
        // A phone's edit of revision 1, made after todod's: newer, so it wins, and that is said.
        try vtodo("one, edited on the phone", sequence: 1).write(toFile: own + ".tmp", atomically: false, encoding: .utf8)
        #expect(rename(own + ".tmp", own) == 0)
        _ = try await events.awaitLine(containing: "edited #1 one, edited on the phone")
        try await daemon.awaitLog(containing: "written from an older revision than todod's todo, and both changed it")
        let listed = try await daemon.todoctl("list", "-a")
        #expect(listed.lines == ["#1 [ ]   one, edited on the phone"])
        try await daemon.stop()
        #expect(!daemon.log.contains("taken over"))
    }

    @Test("At start each file is imported on its own: one that is refused is logged by name and keeps no other out")
    func startPerFile() async throws {
        let directory = try makeTemporaryDirectory()
        let vdir = directory + "/vdir"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        func vtodo(_ uid: String, _ summary: String, _ extra: String = "") -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:\(summary)\r\n\(extra)END:VTODO\r\nEND:VCALENDAR\r\n"
        }
        try vtodo("bad-1", "evil\u{1B}]0;pwned\u{07}").write(toFile: vdir + "/a-bad.ics", atomically: false, encoding: .utf8)
        try vtodo("kid-1", "Kid", "RELATED-TO;RELTYPE=PARENT:mom-1\r\n").write(toFile: vdir + "/b-kid.ics", atomically: false, encoding: .utf8)
        try vtodo("mom-1", "Mom").write(toFile: vdir + "/c-mom.ics", atomically: false, encoding: .utf8)
        let daemon = try await DaemonProcess.start(arguments: ["--ical-dir", vdir])
        // The kid's file sorts before its parent's: the parent is imported first all the same.
        let listed = try await daemon.todoctl("list")
        #expect(listed.lines == ["#1 [ ]   Mom [0/1]", "#2 [ ]     Kid"])
        try await daemon.stop()
        #expect(daemon.log.contains("an iCalendar file could not be imported; left alone"))
        #expect(daemon.log.contains("file=a-bad.ics"), "\(daemon.log)")
    }

    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
