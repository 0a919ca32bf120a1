import Foundation
import NIOCore
import TodoWire

/// Feeds one input to the frame decoder, as the daemon and a client would: it must answer
/// (a frame or an error), never crash, and a request or a response it takes must survive a
/// round trip. The responses' is the one that reaches the daemon's splicer
/// (`WireEncoder+Response.swift`: a list, a change, a detail), which copies through a raw
/// pointer into room it counted itself.
func fuzzOne(_ bytes: [UInt8]) {
    let codec = WireCodec()
    let line = ByteBuffer(bytes: bytes)
    if case .success(let frame) = codec.decodeRequest(line) { roundTrip(frame, codec, "request") }
    if let frame = try? codec.decodeResponse(line) { roundTrip(frame, codec, "response") }
    _ = codec.correlation(of: line)
}

/// `frame` encoded and read back must be the same frame.
private func roundTrip(_ frame: WireFrame, _ codec: WireCodec, _ what: String) {
    guard let encoded = try? codec.encode(frame) else { fatalError("a \(what) decoded but did not encode: \(frame)") }
    let again = try? codec.decodeResponse(encoded.getSlice(at: encoded.readerIndex, length: encoded.readableBytes - 1)!)
    guard again == frame else { fatalError("a \(what) changed on a round trip: \(frame)") }
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
