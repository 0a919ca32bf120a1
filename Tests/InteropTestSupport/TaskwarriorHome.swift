import Foundation
import TestHarness

/// The real Taskwarrior (Debian's `task`) with its rc file and data in a fresh temporary
/// directory: fixtures are what `task export` writes, not hand-made JSON.
public struct TaskwarriorHome: Sendable {
    public let directory: URL
    /// The time zone `task` reads dates in (`TZ`), nil for the test's own.
    public let zone: String?

    /// A new, empty Taskwarrior; `settings` are extra rc lines (user-defined attributes);
    /// `zone` the `TZ` its runs have (`Europe/Berlin`: a local time is not UTC's).
    public init(settings: [String] = [], zone: String? = nil) throws {
        self.zone = zone
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("interop-task-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        let rc = ["data.location=\(directory.path)/data", "confirmation=off", "verbose=nothing", "hooks=off",
                  "news.version=99.0.0", "recurrence.confirmation=no"] + settings
        try (rc.joined(separator: "\n") + "\n").write(to: directory.appendingPathComponent("taskrc"), atomically: true, encoding: .utf8)
    }

    /// Runs `task ARGUMENTS` (with `input` on its standard input) and returns its output;
    /// throws with its error output when it fails.
    @discardableResult
    public func run(_ arguments: [String], input: Data? = nil) throws -> Data {
        var environment = inheritedEnvironment(["TASKRC": directory.appendingPathComponent("taskrc").path].merging(zone.map { ["TZ": $0] } ?? [:]) { $1 })
        environment.removeValue(forKey: "TASKDATA")
        let result = try runToEndNow("/usr/bin/task", arguments, environment: environment, input: Array(input ?? Data()))
        guard result.status == 0 else {
            throw TaskFailure(description: "task \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return Data(result.stdout.utf8)
    }

    /// `task export`, every task by uuid, without the fields Taskwarrior computes per
    /// working set (`id`, `urgency`).
    public func exportedTasks() throws -> [String: [String: Any]] {
        let array = try JSONSerialization.jsonObject(with: try run(["export"])) as? [[String: Any]] ?? []
        var tasks: [String: [String: Any]] = [:]
        for var task in array {
            task.removeValue(forKey: "id")
            task.removeValue(forKey: "urgency")
            tasks[task["uuid"] as? String ?? ""] = task
        }
        return tasks
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
