import Foundation
import Testing

/// `todoctl watch` with planning's fields: subtasks under their parent, folding, and
/// recurrence, parent and wait edited in place, in a real terminal (tmux).
@Suite("todoctl watch: subtasks and planning")
struct WatchPlanningTests {
    private func watch(_ daemon: DaemonProcess, _ arguments: String = "") async throws -> Tmux {
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch \(arguments)")
        try await tmux.waitFor("connected")
        return tmux
    }

    @Test("under --overdue, a todo added with a is said to be left out by the filter instead of vanishing without a word")
    func addHiddenByFilter() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Tax", "-p", "high", "--due", "2026-11-01")
        let tmux = try await Tmux(environment: daemon.environment.merging(["NO_COLOR": "1"]) { $1 })
        try await tmux.type("\(binaryDirectory)/todoctl watch -p high --overdue")
        // The header names the filter (cut, at 80 columns, so that the connection state fits).
        // --overdue is said so, not as its day and minute.
        _ = try await tmux.waitFor("open !high overdue")
        _ = try await tmux.waitFor("Tax")
        try await tmux.keys("a")
        try await tmux.type("Added here")
        _ = try await tmux.waitFor("added #2, which this view's filter leaves out")
        let shown = try await daemon.todoctl("show", "2")
        #expect(shown.stdout.contains("high"))
        await tmux.kill()
        try await daemon.stop()
    }

    @Test("subtasks show under their parent with its progress, follow another client's completion, and fold with z")
    func subtasks() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "trip")
        _ = try await daemon.todoctl("add", "tickets", "--parent", "1")
        _ = try await daemon.todoctl("add", "hotel", "--parent", "1")
        let tmux = try await watch(daemon)
        try await tmux.waitUntil("trip with its two subtasks under it") {
            $0.contains("#1 [ ]   trip [0/2]\n") && $0.contains("#3 [ ]     hotel") && $0.contains("#2 [ ]     tickets")
        }
        _ = try await daemon.todoctl("done", "2")
        try await tmux.waitUntil("the progress to follow") { $0.contains("trip [1/2]") && !$0.contains("tickets") }
        // What `todoctl list` prints, the watch shows.
        let listed = try await daemon.todoctl("list").stdout
        #expect(listed.contains("trip [1/2]") && listed.contains("    hotel"))
        try await tmux.keys("j", "z")
        try await tmux.waitUntil("hotel folded away") { $0.contains("trip [1/2 ▸]") && !$0.contains("hotel") }
        try await tmux.keys("z")
        try await tmux.waitFor("#3 [ ]     hotel")
        await tmux.kill()
        try await daemon.stop()
    }
}
