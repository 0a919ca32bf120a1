import Foundation
import Testing

/// The Model's refusals advise in words any View follows (`RuleAdvice`), and todoctl names the
/// flag or command that takes each step: the Model does not know the command line (issue 24).
@Suite("The Model's advice, in todoctl's words")
struct ModelAdviceTests {
    @Test("no message in the Model's sources names todoctl or one of its flags")
    func modelNamesNoFlag() throws {
        let directory = Documentation.root + "/Sources/TodoModel"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 10, "\(files)")
        var named: [String] = []
        for file in files {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                // Comments may say which View takes a step; a message may not.
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                if code.contains("todoctl") || code.contains(#/--[a-z]/#) { named.append("\(file):\(index + 1): \(code)") }
            }
        }
        #expect(named.isEmpty, "\(named.joined(separator: "\n"))")
    }

    @Test("todoctl says a subtask rule's and a dependency's refusals with its flags and commands: --parent, edit N --no-parent, todoctl restore")
    func todoctlNamesItsFlags() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Paint", "the", "house")
        _ = try await daemon.todoctl("add", "Buy", "paint", "--parent", "1")
        let nested = try await daemon.todoctl("add", "Sand", "--parent", "2")
        #expect(nested.status != 0)
        #expect(nested.stderr.contains("#2 is itself a subtask of #1, and subtasks are one level deep: use --parent 1\n"), "\(nested.stderr)")
        _ = try await daemon.todoctl("add", "Garden")
        let parentOfSubtasks = try await daemon.todoctl("edit", "1", "--parent", "3")
        #expect(parentOfSubtasks.status != 0)
        #expect(parentOfSubtasks.stderr.contains("#1 has subtasks of its own, and subtasks are one level deep: move its subtasks first (edit N --no-parent)\n"),
                "\(parentOfSubtasks.stderr)")
        _ = try await daemon.todoctl("add", "Old")
        _ = try await daemon.todoctl("rm", "4")
        let deleted = try await daemon.todoctl("edit", "3", "depends:4")
        #expect(deleted.status != 0)
        #expect(deleted.stderr.contains("#4 is deleted: restore it first (todoctl restore 4), or name another todo\n"), "\(deleted.stderr)")
        try await daemon.stop()
    }
}
