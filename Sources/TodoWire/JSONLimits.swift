import TodoModel

/// The bounds `JSONParser` applies while it reads, before any value is built: a request
/// that breaks one costs no more than reading up to the point where it does.
struct JSONLimits: Sendable {
    /// Arrays and objects inside one another, the outermost counting 1.
    var maximumDepth = WireProtocol.maximumNesting
    /// Whether arrays are capped (requests) or not (a daemon's list answer holds every todo).
    var capsArrays: Bool

    /// What a client may send.
    static let request = JSONLimits(capsArrays: true)
    /// What the daemon sends.
    static let response = JSONLimits(capsArrays: false)

    /// The most elements the array that is the value of `key` may hold, and what they
    /// are called in the error; nil when uncapped.
    func arrayCap(key: ArraySlice<UInt8>?) -> (count: Int, noun: String)? {
        guard capsArrays else { return nil }
        if let key, JSONLimits.isTagList(key) {
            return (WireProtocol.maximumTagsPerRequest, "tags")
        }
        return (WireProtocol.maximumArrayLength, "elements")
    }

    /// The most tags the tag lists of one object may hold together; nil when uncapped.
    var tagCap: Int? { capsArrays ? WireProtocol.maximumTagsPerRequest : nil }

    /// Whether the member `key` is a list of tags.
    static func isTagList(_ key: ArraySlice<UInt8>) -> Bool {
        tagKeys.contains { ByteRun.equal($0.span, key.span) }
    }

    private static let tagKeys: [[UInt8]] = ["tags", "addTags", "removeTags", "notTags"].map { Array($0.utf8) }
}
