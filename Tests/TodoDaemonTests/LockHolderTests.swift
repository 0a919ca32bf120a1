import Foundation
import Synchronization
import Testing
@testable import TodoDaemon

/// The pid a refusal names when another todod holds the database under another name (a hard
/// link): found in /proc/locks, which the kernel hands out a page at a time, so a machine
/// where locks come and go (CI's parallel tests) makes a single read skip entries.
@Suite("The holder of a lock, found in /proc/locks")
struct LockHolderTests {
    @Test("a held lock's pid is found on every one of 2,000 looks while two other threads take and drop 150 locks each")
    func holderFoundWhileLocksComeAndGo() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let held = open(directory + "/held", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(held) }
        #expect(flock(held, LOCK_EX) == 0)
        var status = stat()
        #expect(fstat(held, &status) == 0)

        let stop = Atomic(false)
        let churners = (0..<2).map { index in
            let descriptors = (0..<150).map { open(directory + "/churn-\(index)-\($0)", O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
            let thread = Thread {
                while !stop.load(ordering: .relaxed) {
                    for descriptor in descriptors { flock(descriptor, LOCK_EX) }
                    for descriptor in descriptors { flock(descriptor, LOCK_UN) }
                }
                for descriptor in descriptors { close(descriptor) }
            }
            thread.start()
            return thread
        }
        defer { stop.store(true, ordering: .relaxed) }
        _ = churners

        var missed = 0
        for _ in 0..<2_000 {
            let holder = LockFile.holderOfLock(onDevice: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            if holder != "\(getpid())" { missed += 1 }
        }
        #expect(missed == 0, "the holder was not found in \(missed) of 2,000 looks")
    }

    @Test("a file nobody locks has no holder")
    func noHolder() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = open(directory + "/free", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(file) }
        var status = stat()
        #expect(fstat(file, &status) == 0)
        #expect(LockFile.holderOfLock(onDevice: UInt64(status.st_dev), inode: UInt64(status.st_ino)) == nil)
    }

    private func makeDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "todod-lock-holder-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
