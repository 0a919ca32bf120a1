import Foundation
import Testing
import TodoInterop
import TodoModel

@Suite("The order todos are imported in")
struct ImportOrderTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    private func todo(_ title: String, parent: ImportedTodo? = nil) -> ImportedTodo {
        ImportedTodo(id: StableID.uuid(for: title), title: title, createdAt: now, parentID: parent?.id)
    }

    @Test("a parent listed after its subtasks is imported before them; the rest keep their order")
    func parentsFirst() {
        let mom = todo("Mom"), kid = todo("Kid", parent: mom), other = todo("Other"), sister = todo("Sister", parent: mom)
        #expect(ImportOrder.parentsFirst([kid, other, mom, sister]).map(\.title) == ["Mom", "Kid", "Other", "Sister"])
        #expect(ImportOrder.parentsFirst([mom, kid]).map(\.title) == ["Mom", "Kid"])
    }

    @Test("files are ordered so that the file of a parent comes first, and within each the parent first")
    func files() {
        let mom = todo("Mom"), kid = todo("Kid", parent: mom), aunt = todo("Aunt"), cousin = todo("Cousin", parent: aunt)
        let ordered = ImportOrder.parentsFirst([[kid], [cousin, aunt], [mom]])
        #expect(ordered.map { $0.map(\.title) } == [["Mom"], ["Kid"], ["Aunt", "Cousin"]])
    }

    @Test("a cycle keeps the given order, and a chain of 100,000 parents is ordered without running out of stack")
    func cyclesAndChains() {
        var a = todo("A"), b = todo("B")
        a.parentID = b.id
        b.parentID = a.id
        #expect(ImportOrder.parentsFirst([a, b]).map(\.title).sorted() == ["A", "B"])
        var chain = [todo("0")]
        for index in 1..<100_000 { chain.append(todo("\(index)", parent: chain[index - 1])) }
        let ordered = ImportOrder.parentsFirst(chain.reversed())
        #expect(ordered.first?.title == "0" && ordered.last?.title == "99999")
    }
}
