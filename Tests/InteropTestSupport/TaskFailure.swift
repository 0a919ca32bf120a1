/// A `task` run that failed: its command line, exit status and error output.
public struct TaskFailure: Error, CustomStringConvertible {
    public var description: String
}
