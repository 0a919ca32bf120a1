/// What a one-shot command printed from, never freed: the process ends right after, and the
/// kernel takes its memory back at once, where freeing a long list takes it back one object
/// at a time. Measured with callgrind on `todoctl list` of 10,000 todos (release): freeing the
/// todos, the outline and the table was 24M of its 169M instructions.
///
/// Only for what a command holds on its way out, once per process: a loop (watch) must free.
enum KeptUntilExit {
    private final class Kept {
        let values: [Any]
        init(_ values: [Any]) { self.values = values }
    }

    static func keep(_ values: Any...) {
        _ = Unmanaged.passRetained(Kept(values))
    }
}
