import Foundation

/// A JSON object or array from a line of output, for assertions.
func jsonObject(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw TestFailure("not a JSON object: \(text)")
    }
    return object
}

func jsonArray(_ text: String) throws -> [[String: Any]] {
    guard let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
        throw TestFailure("not a JSON array: \(text)")
    }
    return array
}

extension Dictionary where Key == String, Value == Any {
    /// `frame.path("data", "todo", "title")`
    func path(_ keys: String...) -> Any? {
        var value: Any? = self
        for key in keys { value = (value as? [String: Any])?[key] }
        return value
    }
}
