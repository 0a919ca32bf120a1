/// Byte-for-byte equality of two runs of bytes: a loop over their spans.
///
/// Why not `elementsEqual`: called on slices inside TodoWire it stayed the unspecialized
/// generic, which walks both sides through iterators and witnesses. Callgrind, `todoctl list`
/// of 10,000 todos: confirming a todo's 160,000 keys took 63M instructions (about 395 a key)
/// and the parser's `null`s 115 instructions each; this loop is a few instructions a byte.
enum ByteRun {
    static func equal(_ a: Span<UInt8>, _ b: Span<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where a[index] != b[index] { return false }
        return true
    }
}
