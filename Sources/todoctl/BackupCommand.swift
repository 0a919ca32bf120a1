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
            The copy is one plain SQLite file holding every todo. Without FILE it stays in
            the daemon's data directory (backups/ beside the database) and its path is
            printed. To restore: stop todod (`systemctl --user stop todod`), copy the backup
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
        let backup = try await Session.run(connection) { client in
            try client.ask(.requestBackup) { if case .responseBackup(let backup) = $0 { backup } else { nil } }
        }
        guard let file else {
            Terminal.print("backed up \(Self.size(backup.bytes)) to \(backup.path)")
            return
        }
        do {
            try Self.move(backup.path, to: file, replacing: force)
        } catch {
            Terminal.error("the backup was written to \(backup.path) but could not be moved to \(file) (\(error.localizedDescription)): move it yourself")
            throw ExitStatus.refused
        }
        Terminal.print("backed up \(Self.size(backup.bytes)) to \(file)")
    }

    /// Renames within a file system, copies across them; never leaves FILE half written.
    static func move(_ source: String, to destination: String, replacing: Bool) throws {
        let manager = FileManager.default
        if replacing, manager.fileExists(atPath: destination) { try manager.removeItem(atPath: destination) }
        do {
            try manager.moveItem(atPath: source, toPath: destination)
        } catch {
            let partial = destination + ".partial"
            try manager.copyItem(atPath: source, toPath: partial)
            try manager.moveItem(atPath: partial, toPath: destination)
            try manager.removeItem(atPath: source)
        }
    }

    static func size(_ bytes: Int64) -> String {
        bytes < 1 << 20 ? "\(max(1, bytes >> 10)) KiB" : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
