import NIOCore
import Testing
import TodoWire

@Suite("LineFrameDecoder")
struct LineFrameDecoderTests {
    /// Feeds `chunks` one read at a time, as a channel would, then EOF; returns the lines.
    private func lines(_ chunks: [String], maximumLength: Int = 64) throws -> [String] {
        let processor = NIOSingleStepByteToMessageProcessor(LineFrameDecoder(maximumLength: maximumLength))
        var lines: [String] = []
        for chunk in chunks {
            try processor.process(buffer: ByteBuffer(string: chunk)) { lines.append(String(buffer: $0)) }
        }
        try processor.finishProcessing(seenEOF: true) { lines.append(String(buffer: $0)) }
        return lines
    }

    @Test("splits a buffer into lines without their newlines")
    func splitsLines() throws {
        #expect(try lines(["one\ntwo\nthree\n"]) == ["one", "two", "three"])
        #expect(try lines(["a\n\nb\n"]) == ["a", "", "b"])
    }

    @Test("strips a carriage return before the newline, and only there")
    func stripsCR() throws {
        #expect(try lines(["one\r\ntwo\r\n"]) == ["one", "two"])
        #expect(try lines(["a\rb\n"]) == ["a\rb"])
    }

    @Test("a line split across reads comes out whole")
    func splitAcrossReads() throws {
        #expect(try lines(["{\"ev", "ent\":", "\"requestStatus\"}\n{\"a", "\":1}\n"]) == ["{\"event\":\"requestStatus\"}", "{\"a\":1}"])
        #expect(try lines(["one\r", "\ntwo\n"]) == ["one", "two"])
        let bytes = Array("first line\nsecond line\n")
        #expect(try lines(bytes.map { String($0) }) == ["first line", "second line"])
    }

    @Test("a last line without a newline still counts at EOF")
    func lastLineAtEOF() throws {
        #expect(try lines(["one\ntwo"]) == ["one", "two"])
        #expect(try lines(["one\n"]) == ["one"])
        #expect(try lines([]) == [])
    }

    @Test("without EOF an unfinished line is held back")
    func unfinishedLineHeld() throws {
        var decoder = LineFrameDecoder(maximumLength: 64)
        var buffer = ByteBuffer(string: "done\npart")
        #expect(try decoder.decode(buffer: &buffer).map { String(buffer: $0) } == "done")
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(try decoder.decodeLast(buffer: &buffer, seenEOF: false) == nil)
        buffer.writeString("ial\n")
        #expect(try decoder.decode(buffer: &buffer).map { String(buffer: $0) } == "partial")
        #expect(buffer.readableBytes == 0)
    }

    @Test("a line at the limit passes; a line over it throws LineTooLongError")
    func limit() throws {
        #expect(try lines([String(repeating: "x", count: 16) + "\n"], maximumLength: 16) == [String(repeating: "x", count: 16)])
        #expect(throws: LineTooLongError.self) { try lines([String(repeating: "x", count: 17) + "\n"], maximumLength: 16) }
        #expect(throws: LineTooLongError.self) { try lines(["ok\n", String(repeating: "x", count: 40) + "\nok\n"], maximumLength: 16) }
    }

    @Test("a line over the limit throws before its newline arrives, however it is split")
    func limitWithoutNewline() throws {
        var decoder = LineFrameDecoder(maximumLength: 16)
        var buffer = ByteBuffer(string: String(repeating: "x", count: 10))
        #expect(try decoder.decode(buffer: &buffer) == nil)
        buffer.writeString(String(repeating: "x", count: 10))
        #expect(throws: LineTooLongError.self) { try decoder.decode(buffer: &buffer) }
        #expect(throws: LineTooLongError.self) {
            try lines([String(repeating: "y", count: 10), String(repeating: "y", count: 10)], maximumLength: 16)
        }
        let error = #expect(throws: LineTooLongError.self) { try lines([String(repeating: "z", count: 17)], maximumLength: 16) }
        #expect(error?.maximumLength == 16)
        #expect(error?.description.contains("16 bytes") == true)
    }

    @Test("the protocol's limits")
    func protocolLimits() {
        #expect(WireProtocol.maximumRequestLength == 1_048_576)
        #expect(WireProtocol.maximumResponseLength > WireProtocol.maximumRequestLength)
        #expect(WireProtocol.version >= 1)
    }
}
