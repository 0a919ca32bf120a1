import Foundation
import Testing

/// `todod --ical-dir`'s files as other programs leave them: rewritten by an editor or a
/// script, shared with events and other todos, the same UID twice, a full disk.
/// A daemon keeping `vdir` (by default `vdir` in a directory of its own), and `todoctl events`
/// listening to it (stop it with `stopNow()`).
func startKeepingCalendar(vdir: String? = nil, in directory: String? = nil) async throws -> (DaemonProcess, String, ChildProcess) {
    let directory = try directory ?? makeTemporaryDirectory()
    let vdir = vdir ?? directory + "/vdir"
    let daemon = try await DaemonProcess.start(in: directory, arguments: ["--ical-dir", vdir])
    let events = try ChildProcess(binaryDirectory + "/todoctl", ["events"], environment: daemon.environment)
    try await awaitClients(2, on: daemon)
    return (daemon, vdir, events)
}

@Suite("todod's iCalendar files beside other programs")
struct CalendarFileTests {

    private func id(of number: Int, on daemon: DaemonProcess) async throws -> String {
        let shown = try await daemon.todoctl("show", "\(number)", "--json")
        return try #require(try jsonObject(shown.stdout)["id"] as? String, "\(shown.stdout) \(shown.stderr)").lowercased()
    }

    private func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no file)" }

    /// How a file is rewritten by removing it first: a script's `rm f; write f`, and Emacs's
    /// default (the old file renamed to a backup, the new one written, the backup removed).
    static let rewrites = [
        "rm \"$F\" && printf '%s' \"$NEW\" > \"$F\"",
        "mv \"$F\" \"$F~\" && printf '%s' \"$NEW\" > \"$F\" && rm \"$F~\"",
    ]

    @Test("A file rewritten by removing it first is an edit: the todo takes the new contents, and the new file stays", arguments: CalendarFileTests.rewrites)
    func removedThenWritten(script: String) async throws {
        let (daemon, vdir, events) = try await startKeepingCalendar()
        defer { events.stopNow() }
        #expect(try await daemon.todoctl("add", "Buy milk").status == 0)
        let file = vdir + "/\(try await id(of: 1, on: daemon)).ics"
        let edited = contents(file).replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy oat milk")
        // Run as one shell command: each step follows the last at once, well within the half second
        // todod waits before a removal deletes a todo.
        let rewrite = try await run("/bin/sh", ["-c", script], environment: ["F": file, "NEW": edited])
        #expect(rewrite.status == 0, "\(rewrite.stderr)")
        _ = try await events.awaitLine(containing: "edited #1 Buy oat milk")
        try await daemon.awaitLog(containing: "an iCalendar file removed is there again")
        let list = try await daemon.todoctl("list", "--all")
        #expect(list.lines == ["#1 [ ]   Buy oat milk"], "\(list.stdout)")
        #expect(contents(file).contains("SUMMARY:Buy oat milk\r\n"), "\(contents(file))")
        try await daemon.stop()
        #expect(!daemon.log.contains("deleting a todo whose iCalendar file another program removed"), "\(daemon.log)")
    }

    /// A phone's file: an appointment with a long folded line, a weekly todo with one occurrence
    /// moved (an override, RECURRENCE-ID), and a second todo.
    private static let event = "BEGIN:VEVENT\r\nUID:dentist-1\r\nDTSTAMP:20261120T090000Z\r\nDTSTART:20261203T090000Z\r\n"
        + "SUMMARY:Dentist appointment\r\nDESCRIPTION:Bring the insurance card and the letter from the last visit\\, the\r\n"
        + "  one about the crown\r\nEND:VEVENT\r\n"
    private static let override = "BEGIN:VTODO\r\nUID:water-1\r\nRECURRENCE-ID;VALUE=DATE:20261209\r\nDTSTAMP:20261120T090000Z\r\n"
        + "SUMMARY:Water the plants (on Thursday this week)\r\nDUE;VALUE=DATE:20261210\r\nEND:VTODO\r\n"
    private static let mixed = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//Calendar//EN\r\n" + event
        + "BEGIN:VTODO\r\nUID:water-1\r\nDTSTAMP:20261120T090000Z\r\nSUMMARY:Water the plants\r\nDUE;VALUE=DATE:20261202\r\n"
        + "RRULE:FREQ=WEEKLY\r\nEND:VTODO\r\n" + override
        + "BEGIN:VTODO\r\nUID:bins-1\r\nDTSTAMP:20261120T090000Z\r\nSUMMARY:Put out the bins\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"

    @Test("A file holding an event, a second todo and an override of one occurrence keeps them when todod rewrites its todos or deletes one")
    func otherComponentsKept() async throws {
        let directory = try makeTemporaryDirectory()
        let vdir = directory + "/vdir"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let file = vdir + "/phone.ics"
        try Self.mixed.write(toFile: file, atomically: false, encoding: .utf8)
        let (daemon, _, events) = try await startKeepingCalendar(vdir: vdir, in: directory)
        defer { events.stopNow() }
        // The override is an occurrence of the weekly todo, not a todo of its own.
        let listed = try jsonArray(try await daemon.todoctl("list", "--json").stdout)
        let numbers = Dictionary(listed.map { ($0["title"] as? String ?? "", $0["number"] as? Int ?? 0) }) { first, _ in first }
        #expect(numbers.keys.sorted() == ["Put out the bins", "Water the plants"], "\(listed)")
        let water = "\(numbers["Water the plants"] ?? 0)", bins = "\(numbers["Put out the bins"] ?? 0)"

        #expect(try await daemon.todoctl("edit", water, "--title", "Water the ferns").status == 0)
        var text = contents(file)
        #expect(text.contains(Self.event), "the event, to the byte: \(text)")
        #expect(text.contains(Self.override), "the override, to the byte: \(text)")
        #expect(text.contains("SUMMARY:Water the ferns\r\n"), "\(text)")
        #expect(text.contains("SUMMARY:Put out the bins\r\n"), "\(text)")
        #expect(text.hasSuffix("END:VCALENDAR\r\n"), "\(text)")
        let names = try FileManager.default.contentsOfDirectory(atPath: vdir)
        #expect(names == ["phone.ics"], "no todo moved to a file of its own: \(names)")

        #expect(try await daemon.todoctl("rm", bins).status == 0)
        text = contents(file)
        #expect(!text.contains("Put out the bins"), "\(text)")
        #expect(text.contains(Self.event) && text.contains(Self.override) && text.contains("SUMMARY:Water the ferns\r\n"), "\(text)")
        try await daemon.stop()
        #expect(!daemon.log.contains("does not parse"), "\(daemon.log)")
    }

    @Test("A restart on files todod wrote, unchanged since, logs no conflict and writes no file")
    func restartOnUnchangedFiles() async throws {
        let directory = try makeTemporaryDirectory()
        let vdir = directory + "/vdir"
        let first = try await DaemonProcess.start(in: directory, arguments: ["--ical-dir", vdir])
        #expect(try await first.todoctl("add", "Buy milk", "--due", "2026-12-24", "--tag", "shop").status == 0)
        #expect(try await first.todoctl("add", "Call mum", "--priority", "high").status == 0)
        #expect(try await first.todoctl("add", "Mow", "--parent", "2").status == 0)
        #expect(try await first.todoctl("done", "1").status == 0)
        try await first.stop()
        func snapshot() throws -> [String: String] {
            try Dictionary(uniqueKeysWithValues: FileManager.default.contentsOfDirectory(atPath: vdir).map { name in
                let attributes = try FileManager.default.attributesOfItem(atPath: vdir + "/" + name)
                return (name, "inode \(attributes[.systemFileNumber] ?? "?") modified \(attributes[.modificationDate] ?? "?")\n" + contents(vdir + "/" + name))
            })
        }
        let before = try snapshot()
        #expect(before.count == 3, "\(before.keys)")

        let again = try await DaemonProcess.start(in: directory, arguments: ["--ical-dir", vdir])
        // A request is answered after the files found at start are imported (the core takes them in turn).
        #expect(try await again.todoctl("list", "--all").lines.count == 3)
        try await again.stop()
        #expect(!again.log.contains("is not newer"), "\(again.log)")
        #expect(try snapshot() == before)
    }

    @Test("One UID in three files is one todo, from the file named after it (else the first by name); the others are named in the log and left alone")
    func oneUIDInThreeFiles() async throws {
        let directory = try makeTemporaryDirectory()
        let vdir = directory + "/vdir"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        func vtodo(_ summary: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:triple-1\r\nLAST-MODIFIED:20261120T090000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        }
        let files = ["a-copy.ics": vtodo("From a copy"), "triple-1.ics": vtodo("From its own file"), "z-copy.ics": vtodo("From another copy")]
        for (name, text) in files { try text.write(toFile: vdir + "/" + name, atomically: false, encoding: .utf8) }
        let (daemon, _, events) = try await startKeepingCalendar(vdir: vdir, in: directory)
        defer { events.stopNow() }
        #expect(try await daemon.todoctl("list", "--all").lines == ["#1 [ ]   From its own file"])
        #expect(try await daemon.todoctl("edit", "1", "--title", "Edited in todod").status == 0)
        #expect(contents(vdir + "/triple-1.ics").contains("SUMMARY:Edited in todod\r\n"), "\(contents(vdir + "/triple-1.ics"))")
        for name in ["a-copy.ics", "z-copy.ics"] { #expect(contents(vdir + "/" + name) == files[name], "\(name): \(contents(vdir + "/" + name))") }
        // A copy changed later is still not the todo's file.
        try vtodo("From a copy, changed").write(toFile: vdir + "/a-copy.ics", atomically: false, encoding: .utf8)
        let deadline = Date().addingTimeInterval(30)
        while daemon.log.components(separatedBy: "file=a-copy.ics").count < 3 {
            guard Date() < deadline else { throw TestFailure("the changed copy was not logged again within 30 s:\n\(daemon.log.suffix(2000))") }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await daemon.todoctl("list", "--all").lines == ["#1 [ ]   Edited in todod"])
        try await daemon.stop()
        for name in ["a-copy.ics", "z-copy.ics"] {
            #expect(daemon.log.contains("file=\(name)"), "\(daemon.log)")
        }
        #expect(daemon.log.contains("holds the UID of the todo in triple-1.ics"), "\(daemon.log)")
    }

    @Test("A file not written because the disk was full is written once there is room, with no further change", .enabled(if: getuid() == 0, "mounts a small file system"))
    func diskFullRetried() async throws {
        let directory = try makeTemporaryDirectory()
        let vdir = directory + "/vdir"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let mounted = try await run("/bin/mount", ["-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", vdir])
        try #require(mounted.status == 0, "cannot mount a tmpfs: \(mounted.stderr)")
        defer { _ = umount2(vdir, Int32(MNT_DETACH)) }
        let (daemon, _, events) = try await startKeepingCalendar(vdir: vdir, in: directory)
        defer { events.stopNow() }
        _ = try await run("/bin/dd", ["if=/dev/zero", "of=\(vdir)/filler", "bs=4096"])
        #expect(try await daemon.todoctl("add", "Buy milk").status == 0)
        let file = vdir + "/\(try await id(of: 1, on: daemon)).ics"
        try await daemon.awaitLog(containing: "cannot write an iCalendar file")
        #expect(!FileManager.default.fileExists(atPath: file))
        try FileManager.default.removeItem(atPath: vdir + "/filler")
        let deadline = Date().addingTimeInterval(30)
        while !contents(file).contains("SUMMARY:Buy milk\r\n") {
            guard Date() < deadline else { throw TestFailure("\(file) not written within 30 s of room being made; the log:\n\(daemon.log.suffix(2000))") }
            try await Task.sleep(for: .milliseconds(50))
        }
        // Only the one todo's file: no temporary file was left behind by the failed write.
        #expect(try FileManager.default.contentsOfDirectory(atPath: vdir) == [file.split(separator: "/").last.map(String.init) ?? ""])
        try await daemon.stop()
    }
}
