import Foundation
import TestHarness
import Testing

/// `annotate`, `denotate`, `show`, `history` and `undo` through the real todoctl and todod.
@Suite("Annotations end to end")
struct AnnotationEndToEndTests {
    @Test("annotate twice, show lists both in order after the notes, denotate one, history shows it, undo brings it back")
    func annotateShowDenotateUndo() async throws {
        let daemon = try await DaemonProcess.start()
        for command in [["add", "Fix the sink", "--notes", "kitchen"], ["annotate", "1", "called", "the", "plumber"], ["annotate", "1", "plumber comes friday"]] {
            let result = try await run("todoctl", command, environment: daemon.environment)
            #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
        }
        let shown = try await daemon.todoctl("show", "1")
        let lines = shown.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let notes = try #require(lines.firstIndex(of: "kitchen"), "\(shown.stdout)")
        let plumber = try #require(lines.firstIndex { $0.hasSuffix("  called the plumber") }, "\(shown.stdout)")
        let friday = try #require(lines.firstIndex { $0.hasSuffix("  plumber comes friday") }, "\(shown.stdout)")
        #expect(notes < plumber && plumber < friday, "\(shown.stdout)")
        // Each with its time, as `show` writes times: `2026-11-26 12:31`.
        #expect(lines[plumber].range(of: #"^  \d{4}-\d\d-\d\d \d\d:\d\d  called"#, options: .regularExpression) != nil, "\(lines[plumber])")

        let json = try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)
        let annotations = try #require(json["annotations"] as? [[String: Any]], "\(json)")
        #expect(annotations.map { $0["description"] as? String } == ["called the plumber", "plumber comes friday"], "\(annotations)")
        #expect(annotations.allSatisfy { ($0["entry"] as? String)?.hasSuffix("Z") == true }, "\(annotations)")

        let missing = try await daemon.todoctl("denotate", "1", "dentist")
        #expect(missing.status == 1, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr.contains("#1 has no annotation that is or starts with \"dentist\"; it has: \"called the plumber\""), "\(missing.stderr)")
        let denotated = try await daemon.todoctl("denotate", "1", "called")
        #expect(denotated.status == 0, "\(denotated.stdout)\(denotated.stderr)")
        let after = try await daemon.todoctl("show", "1")
        #expect(!after.stdout.contains("called the plumber") && after.stdout.contains("plumber comes friday"), "\(after.stdout)")
        let history = try await daemon.todoctl("history", "1")
        #expect(history.stdout.contains(#"annotations "called the plumber", "plumber comes friday" → "plumber comes friday""#), "\(history.stdout)")

        let undone = try await daemon.todoctl("undo")
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        let back = try jsonObject(try await daemon.todoctl("show", "1", "--json").stdout)
        let restored = try #require(back["annotations"] as? [[String: Any]], "\(back)")
        #expect(restored.map { $0["description"] as? String } == ["called the plumber", "plumber comes friday"], "\(restored)")
        #expect(restored.map { $0["entry"] as? String } == annotations.map { $0["entry"] as? String }, "\(restored)")
        try await daemon.stop()
    }

    @Test("annotate with no text, or text of several lines, is refused saying what to give")
    func badText() async throws {
        let daemon = try await DaemonProcess.start()
        _ = try await daemon.todoctl("add", "Fix the sink")
        let empty = try await daemon.todoctl("annotate", "1")
        #expect(empty.status == 64 && empty.stderr.contains("say what to add: `todoctl annotate 1 called the plumber`"), "\(empty.stderr)")
        let blank = try await daemon.todoctl("annotate", "1", "  ")
        #expect(blank.status == 1 && blank.stderr.contains("annotation: is empty"), "\(blank.stderr)")
        let lines = try await daemon.todoctl("annotate", "1", "one\ntwo")
        #expect(lines.status == 1 && lines.stderr.contains("must be one line"), "\(lines.stderr)")
        try await daemon.stop()
    }

    @Test("an annotation made through one daemon sharing PostgreSQL is stored there and shown by the other, which can undo it")
    func sharedStore() async throws {
        let server = try await PostgresServer.start()
        let first = try await DaemonProcess.start(arguments: ["--store", server.uri])
        let second = try await DaemonProcess.start(arguments: ["--store", server.uri])
        for command in [["add", "Fix the sink"], ["annotate", "1", "called the plumber"]] {
            let result = try await run("todoctl", command, environment: first.environment)
            #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
        }
        let stored = try await server.psql("SELECT todo->'annotations'->0->>'description' FROM todo WHERE number = 1")
        #expect(stored == "called the plumber", "\(stored)")
        try await awaitSequence(2, on: second)
        let shown = try await second.todoctl("show", "1")
        #expect(shown.stdout.contains("  called the plumber"), "\(shown.stdout)")
        let undone = try await second.todoctl("undo")
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        try await awaitSequence(3, on: first)
        let back = try jsonObject(try await first.todoctl("show", "1", "--json").stdout)
        #expect(back["annotations"] == nil, "\(back)")
        try await first.stop()
        try await second.stop()
        try await server.stop()
    }
}
