import Foundation

/// A new private directory under `parent` (`mkdtemp`), short enough by default for a socket path
/// in it: a Unix socket's address holds 107 bytes.
public func makeTemporaryDirectory(under parent: String = "/tmp", prefix: String = "todod-test") throws -> String {
    var template = Array((parent + "/\(prefix)-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
        throw HarnessFailure("cannot make a directory in \(parent): \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
}
