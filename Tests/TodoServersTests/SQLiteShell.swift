import Foundation
import TestHarness

/// The `sqlite3` command-line shell (Debian's `sqlite3`), as another program or a user
/// would use it on todod's files: runs `sql` against `path` and returns what it printed.
@discardableResult
func sqlite3(_ path: String, _ sql: String) throws -> String {
    let result = try runToEndNow("/usr/bin/sqlite3", ["-bail", path, sql], environment: inheritedEnvironment())
    guard result.status == 0 else {
        throw SQLiteShellError(message: "sqlite3 \(path) failed: \(result.stderr)")
    }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// What the `sqlite3` shell said when it failed.
struct SQLiteShellError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
