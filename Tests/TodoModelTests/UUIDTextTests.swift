import Foundation
import Testing
import TodoModel

@Suite("UUIDText")
struct UUIDTextTests {
    @Test("reads every UUID as Foundation does, in either case")
    func agreesWithFoundation() {
        for _ in 0..<2_000 {
            let id = UUID()
            for text in [id.uuidString, id.uuidString.lowercased()] {
                let read = UUIDText.uuid(text)
                #expect(read == id, "\(text) read as \(String(describing: read))")
                #expect(read == UUID(uuidString: text))
            }
        }
    }

    @Test("refuses what is not 8-4-4-4-12 hex digits")
    func refusesMalformed() {
        let good = "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d"
        #expect(UUIDText.uuid(good) != nil)
        let bad = [
            "", "0a1b2c3d", String(good.dropLast()), good + "0", good.replacingOccurrences(of: "-", with: ""),
            "0a1b2c3d-4e5f-6a7b-8c9d_0e1f2a3b4c5d", "0a1b2c3g-4e5f-6a7b-8c9d-0e1f2a3b4c5d",
            "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d\n", " a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d",
            "+a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d", "0a1b2c3d4-e5f-6a7b-8c9d-0e1f2a3b4c5d",
            "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4cé",
        ]
        for text in bad {
            #expect(UUIDText.uuid(text) == nil, "\(text.debugDescription) was read as a UUID")
        }
    }
}
