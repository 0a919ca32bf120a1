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
/// libFuzzer's driver, run from our own entry point: SwiftPM links an executable's `main`
/// to `<module>_main`, so libFuzzer's `main` is not used.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// libFuzzer's callback, by the name its own `main` (linked in too) looks for.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// The entry point `make fuzz` builds (`-sanitize=fuzzer,address -DFUZZING`).
@_cdecl("todowire_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzInput)
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
