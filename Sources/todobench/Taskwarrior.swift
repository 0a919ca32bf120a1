import Foundation
import TodoModel

/// Debian's Taskwarrior (`task`) with its own rc file and data in a private directory,
/// holding the same todos as todod's database (`sampleTodo`): the yardstick for a
/// command-line todo tool run as a whole process.
struct Taskwarrior: Sendable {
    let executable: String
    let version: String
    /// TASKRC for every `task` this run starts.
    let environment: [String: String]

    /// Sets up `directory` and imports `count` todos (`task import`), checking that they arrived.
    static func prepare(in directory: String, count: Int) throws -> Taskwarrior {
        guard let executable = findExecutable("task") else {
            throw BenchError("Taskwarrior (task) is not installed, so there is nothing to compare todoctl with: apt-get install taskwarrior (make bench does)")
        }
        let data = directory + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        // Quiet and plain, as todoctl is: no confirmation, no colour, no banners, no
        // wrapping to a guessed terminal width, no hooks; news.version stops 2.6's nag.
        let settings = [
            "data.location=\(data)", "confirmation=off", "verbose=nothing", "color=off", "hooks=off",
            "defaultwidth=0", "news.version=99.0.0",
        ]
        let rc = directory + "/taskrc"
        let log = directory + "/task.log"
        try (settings.joined(separator: "\n") + "\n").write(toFile: rc, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["TASKRC"] = rc
        environment.removeValue(forKey: "TASKDATA")
        let version = try run(executable, ["--version"], environment: environment, log: log).trimmingCharacters(in: .whitespacesAndNewlines)
        let taskwarrior = Taskwarrior(executable: executable, version: version, environment: environment)

        let file = directory + "/import.json"
        try JSONSerialization.data(withJSONObject: (1...count).map(Taskwarrior.task)).write(to: URL(fileURLWithPath: file))
        _ = try run(executable, ["import", file], environment: environment, log: log)
        let pending = try run(executable, ["count", "status:pending"], environment: environment, log: log)
        guard Int(pending.trimmingCharacters(in: .whitespacesAndNewlines)) == count else {
            throw BenchError("task import left \(pending.trimmingCharacters(in: .whitespacesAndNewlines)) pending tasks, not \(count); see \(directory)")
        }
        return taskwarrior
    }

    /// Todo `index` of the bench's data set as a Taskwarrior task (its import format).
    static func task(_ index: Int) -> [String: Any] {
        let todo = sampleTodo(index)
        var task: [String: Any] = [
            "uuid": UUID().uuidString.lowercased(), "status": "pending", "description": todo.title,
            "entry": "20240101T000000Z",
        ]
        if !todo.notes.isEmpty { task["annotations"] = [["entry": "20240101T000000Z", "description": todo.notes]] }
        switch todo.priority {
        case .high: task["priority"] = "H"
        case .low: task["priority"] = "L"
        case .normal: break
        }
        if let due = todo.due { task["due"] = String(format: "%04d%02d%02dT000000Z", due.year, due.month, due.day) }
        if !todo.tags.isEmpty { task["tags"] = todo.tags }
        return task
    }

    /// Runs `task` to the end and returns its standard output; its standard error goes to `log`.
    private static func run(_ executable: String, _ arguments: [String], environment: [String: String], log: String) throws -> String {
        let process = Process()
        let output = Pipe()
        if !FileManager.default.fileExists(atPath: log) { _ = FileManager.default.createFile(atPath: log, contents: nil) }
        let errors = FileHandle(forWritingAtPath: log)
        errors?.seekToEndOfFile()
        defer { try? errors?.close() }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("task \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus); its messages are in \(log)")
        }
        return text
    }
}
