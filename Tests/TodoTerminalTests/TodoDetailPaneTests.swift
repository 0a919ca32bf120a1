import Foundation
import Testing
import TodoModel
import TodoTerminal

@Suite("The watch's detail pane")
struct TodoDetailPaneTests {
    @Test("after the notes come the annotations, oldest first, each its local time and text, escaped")
    func annotations() {
        let created = Date(millisecondsSince1970: 1_780_000_000_000)
        let first = created.addingTimeInterval(3_600), second = created.addingTimeInterval(7_200)
        let todo = Todo(
            number: 3, title: "Fix the sink", notes: "kitchen", createdAt: created,
            annotations: [Annotation(entry: first, description: "called the plumber"), Annotation(entry: second, description: "bell\u{7}")])
        let lines = TodoDetailPane(todo, today: LocalDate(created)).lines(columns: 80)
        let expected = ["kitchen", "\(LocalMinute(first))  called the plumber", "\(LocalMinute(second))  bell\\u{7}"]
        #expect(Array(lines.suffix(3)) == expected, "\(lines)")
    }
}
