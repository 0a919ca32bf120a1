/// A consistent copy of the database that the daemon wrote while running
/// (`responseBackup`): a plain SQLite file, in the daemon's data directory.
public struct DatabaseBackup: Sendable, Equatable, Codable {
    public var path: String
    public var bytes: Int64

    public init(path: String, bytes: Int64) {
        self.path = path
        self.bytes = bytes
    }
}

/// What the ModelServer answers to `requestBackupDatabase`.
public enum DatabaseBackupResult: Sendable, Equatable, Codable {
    case written(DatabaseBackup)
    /// Nothing was written; the reason says why.
    case failed(String)
}
