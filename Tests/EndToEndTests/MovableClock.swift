import Foundation
import TestHarness

/// The file a daemon's and todoctl's clock is read from (`TODOD_TEST_NOW=@FILE`, debug builds),
/// moved by writing a new file and renaming it over the old, so no reader sees half an instant.
struct MovableClock {
    let path: String

    init(in directory: String) {
        path = directory + "/now"
    }

    /// The value of TODOD_TEST_NOW that reads this file.
    var variable: String { "@" + path }

    func set(_ instant: String) throws {
        try Data(instant.utf8).write(to: URL(fileURLWithPath: path + ".new"))
        guard rename(path + ".new", path) == 0 else { throw TestFailure("cannot move the clock: errno \(errno)") }
    }
}
