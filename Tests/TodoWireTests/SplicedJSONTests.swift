import NIOCore
import Testing
@testable import TodoWire

/// `SplicedJSON.write(into:)` copies its pieces through a raw pointer into room it counted
/// itself (the one unchecked copy left on the wire's hot path): these are its edges, each
/// checked byte for byte against the pieces written one after another.
@Suite("SplicedJSON")
struct SplicedJSONTests {
    /// What `json` writes into `buffer`, and the buffer's bytes before and after.
    private func written(_ json: SplicedJSON, into buffer: ByteBuffer = ByteBuffer()) -> (before: [UInt8], after: [UInt8], added: Int) {
        var json = json, buffer = buffer
        let before = Array(buffer.readableBytesView)
        let writerIndex = buffer.writerIndex
        json.write(into: &buffer)
        return (before, Array(buffer.readableBytesView), buffer.writerIndex - writerIndex)
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("literal text alone, with no spliced piece, is written as it is")
    func textAlone() {
        var json = SplicedJSON()
        json.text.raw("{\"a\":1}")
        let (_, after, added) = written(json)
        #expect(after == bytes("{\"a\":1}") && added == 7)
    }

    @Test("nothing at all writes nothing")
    func nothing() {
        let (before, after, added) = written(SplicedJSON(), into: ByteBuffer(string: "kept"))
        #expect(after == before && added == 0)
    }

    @Test("an empty array is its brackets, one element has no comma, several have one between each, an empty element included")
    func arrays() {
        for (elements, expected) in [([], "[]"), (["1"], "[1]"), (["1", "22", "333"], "[1,22,333]"), (["", "x", ""], "[,x,]")] {
            var json = SplicedJSON()
            json.text.raw("{\"todos\":")
            json.spliceArray(elements.map(bytes))
            json.text.raw("}")
            let (_, after, added) = written(json)
            #expect(after == bytes("{\"todos\":\(expected)}"), "\(elements)")
            #expect(added == after.count, "\(elements)")
        }
    }

    @Test("spliced pieces, empty ones included, go between the text runs in order")
    func piecesInOrder() {
        var json = SplicedJSON()
        json.splice(bytes("A"))
        json.splice([])
        json.text.raw("b")
        json.splice(bytes("CC"))
        json.spliceArray([])
        json.text.raw("d")
        let (_, after, _) = written(json)
        #expect(after == bytes("AbCC[]d"))
    }

    @Test("written after what the buffer holds, its read part skipped, the writer index moved by exactly the frame's length")
    func appendsToABufferInUse() {
        var buffer = ByteBuffer(string: "old line\nnext")
        buffer.moveReaderIndex(forwardBy: 9)
        var json = SplicedJSON()
        json.text.raw("{")
        json.spliceArray([bytes("1"), bytes("2")])
        json.text.raw("}")
        let (before, after, added) = written(json, into: buffer)
        #expect(before == bytes("next"))
        #expect(after == bytes("next{[1,2]}") && added == 7)
    }

    @Test("a frame far larger than the buffer's room is written whole")
    func largerThanTheRoom() {
        let row = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        var json = SplicedJSON()
        json.text.raw("[")
        json.spliceArray(Array(repeating: row, count: 300))
        json.text.raw("]")
        var small = ByteBuffer()
        small.reserveCapacity(16)
        let (_, after, added) = written(json, into: small)
        #expect(added == 2 + 2 + 300 * 1000 + 299 && after.count == added)
        #expect(after.filter { $0 == UInt8(ascii: ",") }.count == 299)
    }
}
