import Dispatch
import Foundation
import Logging
import TodoEvents

/// `todoctl backup`: answers `requestBackupDatabase` with a consistent copy of the database,
/// written beside it (in `backups/`). A participant of its own, cut out of the ModelServer:
/// all it shares with the committer is the storage queue, on which the copy is made, so it
/// falls between two commits and never holds a write's answer longer than one commit would.
final class BackupWriter: Sendable {
    let access: StoreAccess

    /// Subscribes at once.
    init(_ access: StoreAccess) {
        self.access = access
        access.bus.subscribe(to: [.model(.requestBackupDatabase)]) { [weak self] envelope in self?.backUp(envelope) }
    }

    /// Writes the copy on the storage thread, between commits; answers on the core with its path.
    private func backUp(_ envelope: Envelope) {
        let directory = TodoStore.backupsDirectory(of: access.store.path)
        let name = "todos-" + BackupWriter.stamp(access.clock()) + ".sqlite"
        access.storage.async { [self] in
            let result: DatabaseBackupResult
            do {
                try access.gate.refuseWhenClosed()
                // Private: the copies hold every todo. One planted since the start (a link elsewhere) is refused.
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try DatabaseFile.checkBackups(directory)
                let path = (directory as NSString).appendingPathComponent(name)
                try access.store.backup(to: path)
                let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
                result = .written(DatabaseBackup(path: path, bytes: size))
            } catch {
                access.logger.error("backup failed", metadata: ["error": "\(error)"])
                result = .failed(access.store.describe(error))
            }
            access.returnToCore { self.access.bus.publish(.responseBackupDatabase(result), correlation: envelope.correlation) }
        }
    }

    /// `20261123-091911-123`: a backup's name sorts by time.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))-"
            + String(format: "%03d", (parts.nanosecond ?? 0) / 1_000_000)
    }
}
