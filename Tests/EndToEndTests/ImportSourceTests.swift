import Foundation
import Testing

/// What `todoctl import FILE` is given besides a regular file: a device, a directory,
/// a FIFO.
@Suite("Import from what is not a regular file, end to end")
struct ImportSourceTests {
    @Test("importing /dev/zero or a directory says what it is and what to give instead, at once, and imports nothing")
    func deviceIsNamed() async throws {
        let daemon = try await DaemonProcess.start()
        let zero = try await daemon.todoctl("import", "--from", "todotxt", "/dev/zero")
        #expect(zero.status == 65, "status \(zero.status): \(zero.stderr)")
        #expect(zero.stderr.contains("/dev/zero: it is a character device"), "\(zero.stderr)")
        #expect(zero.stderr.contains("give a regular file, or - to read standard input"), "\(zero.stderr)")
        #expect(!zero.stderr.contains("permission"), "\(zero.stderr)")
        let directory = try await daemon.todoctl("import", "--from", "todotxt", daemon.directory)
        #expect(directory.status == 65, "status \(directory.status): \(directory.stderr)")
        #expect(directory.stderr.contains("it is a directory"), "\(directory.stderr)")
        let list = try await daemon.todoctl("list", "--all")
        #expect(!list.stdout.contains("\u{0}"), "\(list.stdout)")
        #expect(try await daemon.stop() == 0)
    }

    @Test("a FIFO (as `<(command)` gives) is read to its end and imported, as standard input is")
    func fifoIsRead() async throws {
        let daemon = try await DaemonProcess.start()
        let fifo = daemon.directory + "/todo.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The writer's open waits for the reader's: a thread of its own, done when todoctl has read.
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data("Buy milk\nCall mum\n".utf8))
            try? handle.close()
        }
        writer.start()
        let imported = try await daemon.todoctl("import", "--from", "todotxt", fifo)
        #expect(imported.status == 0, "status \(imported.status): \(imported.stderr)")
        #expect(imported.stdout.contains("2 created"), "\(imported.stdout)")
        let list = try await daemon.todoctl("list")
        #expect(list.stdout.contains("Buy milk") && list.stdout.contains("Call mum"), "\(list.stdout)")
        #expect(try await daemon.stop() == 0)
    }
}
