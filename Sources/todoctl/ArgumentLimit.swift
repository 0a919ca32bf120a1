import ArgumentParser
import Foundation
import TodoViewModel

/// Limits on the command line checked before ArgumentParser reads it: its handling of a
/// repeated option costs time quadratic in the repeats (20,000 `--tag` took 22 s of CPU
/// before any check of ours ran), so a flood is refused while it is still cheap to count.
enum ArgumentLimit {
    /// The options that may repeat, and how often.
    static let repeatable = [
        "--tag": TodoValidation.maximumTagsGiven, "-t": TodoValidation.maximumTagsGiven,
        "--untag": TodoValidation.maximumTagsGiven, "--not-tag": TodoValidation.maximumTagsGiven,
    ]

    /// The first option given more often than it may be, with its count.
    static func excess(in arguments: [String]) -> (option: String, count: Int, limit: Int)? {
        var counts: [String: Int] = [:]
        for argument in arguments {
            guard argument.hasPrefix("-") else { continue }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard let limit = repeatable[name] else { continue }
            counts[name, default: 0] += 1
            if counts[name]! > limit {
                return (name, arguments.lazy.filter { $0 == name || $0.hasPrefix(name + "=") }.count, limit)
            }
        }
        return nil
    }
}
