import Foundation

/// The `sqlite3` command-line shell (Debian's `sqlite3`), as another program or a user
/// would use it on todod's files: runs `sql` against `path` and returns what it printed.
@discardableResult
func sqlite3(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = ["-bail", path, sql]
    let (out, err) = (Pipe(), Pipe())
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw SQLiteShellError(message: "sqlite3 \(path) failed: \(String(decoding: errors, as: UTF8.self))")
    }
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// What the `sqlite3` shell said when it failed.
struct SQLiteShellError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
