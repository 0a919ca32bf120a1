import Foundation
import NIOCore
import TodoWire

/// Feeds one input to the frame decoder, as the daemon and a client would: it must answer
/// (a frame or an error), never crash, and a request it takes must survive a round trip.
func fuzzOne(_ bytes: [UInt8]) {
    let codec = WireCodec()
    let line = ByteBuffer(bytes: bytes)
    if case .success(let frame) = codec.decodeRequest(line) {
        guard let encoded = try? codec.encode(frame) else { fatalError("a request decoded but did not encode: \(frame)") }
        let again = try? codec.decodeResponse(encoded.getSlice(at: encoded.readerIndex, length: encoded.readableBytes - 1)!)
        guard again == frame else { fatalError("a request changed on a round trip: \(frame)") }
    }
    _ = try? codec.decodeResponse(line)
    _ = codec.correlation(of: line)
}

#if FUZZING
/// libFuzzer's entry point (`make fuzz`): the build passes `-sanitize=fuzzer,address -D FUZZING`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    fuzzOne(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}
#else
/// Without libFuzzer: replays the files named on the command line (a corpus, or a crash).
@main
enum WireFuzz {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            fuzzOne(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }
}
#endif
