import ArgumentParser
import Foundation
import TodoViewModel

/// Limits on the command line checked before ArgumentParser reads it: its handling of a
/// repeated option costs time quadratic in the repeats (20,000 `--tag` took 22 s of CPU
/// before any check of ours ran), so a flood is refused while it is still cheap to count.
enum ArgumentLimit {
    /// The options that may repeat, each a list of tags, so each as often as a command may
    /// name tags. (An array, not a dictionary of limits: the dictionary's type was instantiated,
    /// with a scan of the binary's conformance records, on every command's start, 14% of
    /// `todoctl --version`'s instructions by callgrind.)
    static let repeatable = ["--tag", "-t", "--untag", "--not-tag"]
    static let limit = TodoValidation.maximumTagsGiven

    /// The first option given more often than it may be, with its count.
    static func excess(in arguments: [String]) -> (option: String, count: Int, limit: Int)? {
        var counts = [Int](repeating: 0, count: repeatable.count)
        for argument in arguments {
            guard argument.hasPrefix("-") else { continue }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard let slot = repeatable.firstIndex(of: name) else { continue }
            counts[slot] += 1
            if counts[slot] > limit {
                return (name, arguments.lazy.filter { $0 == name || $0.hasPrefix(name + "=") }.count, limit)
            }
        }
        return nil
    }
}
