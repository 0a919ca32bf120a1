import ArgumentParser
import Foundation
import TodoEvents

/// `todoctl backup [FILE]`: the daemon writes a consistent copy of the database while it
/// runs (SQLite's online backup), in its own data directory, where it may write even when
/// systemd sandboxes it; then this command moves the copy to FILE.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database, consistently, while the daemon runs.",
        discussion: """
            The copy is one plain SQLite file holding every todo. Without FILE it stays in \
            the daemon's data directory (backups/ beside the database) and its path is \
            printed. To restore: stop todod (`systemctl --user stop todod`), copy the backup \
            over the database file (`todoctl status` names it), and start todod again.
            """)

    @Argument(help: ArgumentHelp("Where to put the copy (default: keep it in the daemon's data directory).", valueName: "file"))
    var file: String?

    @Flag(help: "Replace FILE if it exists.")
    var force = false

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if let file, !force, FileManager.default.fileExists(atPath: file) {
            throw ValidationError("\(file) already exists: choose another name, or pass --force to replace it")
        }
    }

    func run() async throws {
        let backup = try Session.run(connection) { client in
            try client.ask(.requestBackup) { if case .responseBackup(let backup) = $0 { backup } else { nil } }
        }
        guard let file else {
            Terminal.print("backed up \(Self.size(backup.bytes)) to \(backup.path)")
            return
        }
        do throws(MoveError) {
            try Self.move(backup.path, to: file, replacing: force)
        } catch {
            let left = FileManager.default.fileExists(atPath: file) ? "\(file) was left as it was" : "nothing was written there"
            Terminal.error("""
                the backup was written to \(backup.path) but could not be put at \(file): \(error.message); \
                \(left): free some space or choose another FILE, or move the backup yourself
                """)
            throw ExitStatus.refused
        }
        Terminal.print("backed up \(Self.size(backup.bytes)) to \(file)")
    }

    /// Why the copy could not be put in place, in `strerror`'s words and where.
    struct MoveError: Error {
        let message: String

        init(_ doing: String, _ error: Int32 = errno) {
            let reason = error == ENOSPC || error == EDQUOT ? "the disk is full" : String(cString: strerror(error))
            message = "\(doing): \(reason)"
        }
    }

    /// Puts the daemon's copy at `destination` whole or not at all: a rename within a
    /// file system; across them (a USB stick), a copy to a new file beside `destination`,
    /// synced, then renamed over it. Until that rename an existing `destination` stays as
    /// it was, and a copy that fails (a full disk) is removed.
    static func move(_ source: String, to destination: String, replacing: Bool) throws(MoveError) {
        if try place(source, at: destination, replacing: replacing) { return }
        let directory = (destination as NSString).deletingLastPathComponent.isEmpty ? "." : (destination as NSString).deletingLastPathComponent
        // A new name nobody could have planted: O_EXCL refuses any file or link already there.
        let temporary = (directory as NSString).appendingPathComponent(".todoctl-backup-\(UUID().uuidString)")
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw MoveError("cannot create a file in \(directory)") }
        do throws(MoveError) {
            defer { close(output) }
            try copy(source, into: output, named: temporary)
            guard try place(temporary, at: destination, replacing: replacing) else {
                throw MoveError("cannot put \(temporary) at \(destination)")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        unlink(source)
        let handle = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if handle >= 0 {
            // The new name survives a power cut too.
            fsync(handle)
            close(handle)
        }
    }

    /// Renames `source` to `destination` (or links it, refusing an existing one, without
    /// `replacing`); false when they are on two file systems.
    private static func place(_ source: String, at destination: String, replacing: Bool) throws(MoveError) -> Bool {
        if replacing ? rename(source, destination) == 0 : link(source, destination) == 0 {
            if !replacing { unlink(source) }
            return true
        }
        if errno == EXDEV { return false }
        throw MoveError(errno == EEXIST ? "\(destination) already exists" : "cannot write \(destination)")
    }

    /// Copies the file at `source` into `output`, then syncs it: a full disk shows here,
    /// not after the rename.
    private static func copy(_ source: String, into output: Int32, named name: String) throws(MoveError) {
        guard let input = FileHandle(forReadingAtPath: source) else { throw MoveError("cannot read \(source)") }
        defer { try? input.close() }
        let writer = FileHandle(fileDescriptor: output, closeOnDealloc: false)
        while true {
            let chunk: Data
            do {
                guard let read = try input.read(upToCount: 1 << 16), !read.isEmpty else { break }
                chunk = read
            } catch {
                throw MoveError("cannot read \(source)", posixCode(of: error))
            }
            do {
                try writer.write(contentsOf: chunk)
            } catch {
                throw MoveError("cannot write \(name)", posixCode(of: error))
            }
        }
        guard fsync(output) == 0 else { throw MoveError("cannot write \(name)") }
    }

    /// The `errno` behind a FileHandle's error.
    private static func posixCode(of error: any Error) -> Int32 {
        let error = error as NSError
        // Foundation on Linux reports a failed write as a Cocoa error; the call's errno says why (ENOSPC).
        return error.domain == NSPOSIXErrorDomain ? Int32(error.code) : errno
    }

    static func size(_ bytes: Int64) -> String {
        bytes < 1 << 20 ? "\(max(1, bytes >> 10)) KiB" : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
