import Foundation
import Testing
import TodoModel

@Suite("Annotations")
struct AnnotationTests {
    let now = at(60)
    let todo = Todo(
        number: 4, title: "Fix the sink", createdAt: at(0), revision: 2,
        annotations: [
            Annotation(entry: at(10), description: "called the plumber"), Annotation(entry: at(20), description: "called the landlord"),
            Annotation(entry: at(30), description: "call"),
        ])

    private func edited(_ edit: TodoEdit) throws -> Todo {
        try #require(try TodoMutation.edit(.number(4), edit, expectedRevision: nil).applied(to: todo, at: now))
    }

    @Test("annotate appends a line stamped with the time of the write, after the others")
    func annotate() throws {
        let next = try edited(TodoEdit(annotate: "plumber comes friday"))
        #expect(next.annotations.dropLast() == todo.annotations[...], "\(next.annotations)")
        #expect(next.annotations.last == Annotation(entry: now, description: "plumber comes friday"), "\(next.annotations)")
        #expect(next.revision == 3 && next.updatedAt == now, "\(next)")
    }

    @Test("denotate removes the annotation with exactly that text before one it only starts")
    func denotateExact() throws {
        #expect(try edited(TodoEdit(denotate: "call")).annotations.map(\.description) == ["called the plumber", "called the landlord"])
    }

    @Test("denotate removes the one annotation a prefix starts, as Taskwarrior does")
    func denotatePrefix() throws {
        #expect(try edited(TodoEdit(denotate: "called the p")).annotations.map(\.description) == ["called the landlord", "call"])
    }

    @Test("denotate of a prefix several annotations share is refused, naming them")
    func denotateAmbiguous() {
        #expect(throws: TodoModelError.invalid(
            field: "annotation",
            reason: "\"called\" starts 2 annotations of #4 (\"called the plumber\", \"called the landlord\"); give more of the text")) {
            try edited(TodoEdit(denotate: "called"))
        }
    }

    @Test("denotate of a text no annotation has is refused, listing the ones there are")
    func denotateMissing() {
        #expect(throws: TodoModelError.invalid(
            field: "annotation",
            reason: "#4 has no annotation that is or starts with \"plumber\"; it has: \"called the plumber\", \"called the landlord\", \"call\"")) {
            try edited(TodoEdit(denotate: "plumber"))
        }
    }

    @Test("a todo at the most annotations refuses another, saying how to make room")
    func maximumCount() throws {
        var full = todo
        full.annotations = (0..<Annotation.maximumCount).map { Annotation(entry: at($0), description: "line \($0)") }
        let error = #expect(throws: TodoModelError.self) {
            try TodoMutation.edit(.number(4), TodoEdit(annotate: "one more"), expectedRevision: nil).applied(to: full, at: now)
        }
        guard case .invalid(let field, let reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(field == "annotations" && reason.hasSuffix("; " + RuleAdvice.removeAnAnnotation), "\(field): \(reason)")
    }

    @Test("undo puts the annotations back as a field of their own")
    func undoField() {
        var later = todo
        later.annotations.removeFirst()
        #expect(TodoField.allCases.filter { !$0.isEqual(in: todo, and: later) } == [.annotations])
        #expect(TodoField.annotations.copied(from: todo, to: later) == todo)
    }

    @Test("a todo's JSON holds its annotations as entry and description, and none when it has none")
    func coding() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        #expect(try decoder.decode(Todo.self, from: encoder.encode(todo)) == todo)
        let object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(todo)) as? [String: Any])
        let first = try #require((object["annotations"] as? [[String: Any]])?.first, "\(object)")
        #expect(first["description"] as? String == "called the plumber" && (first["entry"] as? NSNumber)?.int64Value == at(10).millisecondsSince1970, "\(first)")
        var plain = todo
        plain.annotations = []
        let none = try #require(try JSONSerialization.jsonObject(with: encoder.encode(plain)) as? [String: Any])
        #expect(none["annotations"] == nil, "\(none)")
    }
}
