import Foundation
import Testing

/// `todoctl backup` where it goes wrong: a full disk at either end, a backup cut off by a
/// kill. Each is the real todod and todoctl on a real small file system (tmpfs).
@Suite("Backups on a full disk, end to end")
struct BackupFileTests {
    @Test(
        "backup --force onto a full file system keeps the old backup whole, says the disk is full, and leaves no partial copy",
        .enabled(if: getuid() == 0, "needs root to mount a small file system"))
    func forceOntoFullDiskKeepsTheOldBackup() async throws {
        let stick = try await FullDisk(size: "512k")
        let daemon = try await DaemonProcess.start()
        #expect(try await daemon.todoctl("add", "kept in the old backup").status == 0)
        let file = stick.path + "/todos.sqlite"
        let first = try await daemon.todoctl("backup", file)
        #expect(first.status == 0, "\(first.stderr)")
        let old = try Data(contentsOf: URL(fileURLWithPath: file))
        // The database grows past the old copy; the stick has no room left at all.
        let notes = String(repeating: "n", count: 4000)
        for index in 0..<40 { _ = try await daemon.todoctl("add", "later \(index)", "--notes", notes) }
        try await stick.fill()

        let refused = try await daemon.todoctl("backup", "--force", file)
        #expect(refused.status == 1, "status \(refused.status): \(refused.stderr)")
        #expect(refused.stderr.contains("the disk is full"), "\(refused.stderr)")
        #expect(refused.stderr.contains("\(file) was left as it was"), "\(refused.stderr)")
        let now = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(now == old, "the old backup has \(now.count) bytes, not its \(old.count)")
        let left = try FileManager.default.contentsOfDirectory(atPath: stick.path).sorted()
        #expect(left == ["filler", "todos.sqlite"], "\(left)")
        #expect(try await daemon.stop() == 0)
    }

    @Test(
        "a backup into a full data directory says the disk is full (not SQLite's \"not an error\") and leaves no partial copy",
        .enabled(if: getuid() == 0, "needs root to mount a small file system"))
    func backupOnFullDiskSaysSo() async throws {
        let disk = try await FullDisk(size: "4m")
        let daemon = try await DaemonProcess.start(in: disk.path)
        for index in 0..<5 { #expect(try await daemon.todoctl("add", "todo \(index)").status == 0) }
        #expect(try await daemon.todoctl("backup").status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: disk.path + "/backups")
        // Filled only once todod has checkpointed (5 s after the last write): the write-ahead log
        // it then truncates would free room again after the fill (seen: the backup fitted).
        let wal = daemon.databasePath + "-wal"
        let deadline = ContinuousClock.now + .seconds(60)
        while ((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let filler = try await disk.fill()

        let refused = try await daemon.todoctl("backup")
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(refused.stderr.contains("is full"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("not an error"), "\(refused.stderr)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: disk.path + "/backups")
        #expect(backups == before, "\(backups)")

        // With room again, the same request works.
        try FileManager.default.removeItem(atPath: filler)
        let again = try await daemon.todoctl("backup")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try await daemon.stop() == 0)
    }

    @Test("what a backup cut off by kill -9 left in backups/ (its partial copy and -journal) is removed when todod starts")
    func unfinishedBackupsAreRemovedAtStart() async throws {
        let first = try await DaemonProcess.start()
        let kept = try await first.todoctl("backup")
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(try await first.stop() == 0)
        let backups = first.directory + "/backups"
        let finished = try FileManager.default.contentsOfDirectory(atPath: backups)
        // What the daemon's storage thread leaves when killed inside SQLite's backup step.
        let partial = backups + "/todos-20261125-101010-123.sqlite.partial-1A2B3C4D"
        for leftover in [partial, partial + "-journal"] {
            #expect(FileManager.default.createFile(atPath: leftover, contents: Data(count: 4096)))
        }

        let again = try await DaemonProcess.start(in: first.directory)
        let left = try FileManager.default.contentsOfDirectory(atPath: backups)
        #expect(left == finished, "\(left)")
        #expect(try await again.stop() == 0)
    }
}
