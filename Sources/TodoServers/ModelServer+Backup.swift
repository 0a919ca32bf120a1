import Foundation
import TodoEvents

/// `todoctl backup`: a copy of the database, made on the storage thread between commits.
extension ModelServer {
    /// Writes a consistent copy of the database beside it (in `backups/`), on the storage
    /// thread, between commits; answers with its path.
    func backUp(_ envelope: Envelope) {
        let directory = TodoStore.backupsDirectory(of: store.path)
        let name = "todos-" + ModelServer.backupStamp(clock()) + ".sqlite"
        storage.async { [self] in
            let result: DatabaseBackupResult
            do {
                try refuseWhenClosed()
                // Private: the copies hold every todo. One planted since the start (a link elsewhere) is refused.
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try DatabaseFile.checkBackups(directory)
                let path = (directory as NSString).appendingPathComponent(name)
                try store.backup(to: path)
                let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
                result = .written(DatabaseBackup(path: path, bytes: size))
            } catch {
                logger.error("backup failed", metadata: ["error": "\(error)"])
                result = .failed(store.describe(error))
            }
            returnToCore { self.bus.publish(.responseBackupDatabase(result), correlation: envelope.correlation) }
        }
    }

    /// `20261123-091911-123`: a backup's name sorts by time.
    static func backupStamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))-"
            + String(format: "%03d", (parts.nanosecond ?? 0) / 1_000_000)
    }
}
