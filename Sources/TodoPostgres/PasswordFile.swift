import Foundation

/// The password for a store, found as libpq finds it: `$PGPASSWORD`, else the first
/// matching line of `$PGPASSFILE` or `~/.pgpass` (`host:port:database:user:password`, `*`
/// matching anything, `\:` and `\\` escaped). It is never logged.
public enum PasswordFile {
    /// The password for `uri`, or nil when none is set (the server may not ask for one).
    public static func password(for uri: StoreURI, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let password = environment["PGPASSWORD"], !password.isEmpty { return password }
        let path = environment["PGPASSFILE"] ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.pgpass"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return password(for: uri, in: text)
    }

    /// The password of the first line of `text` that matches `uri`. A Unix socket's host
    /// is `localhost`, as libpq has it.
    public static func password(for uri: StoreURI, in text: String) -> String? {
        let wanted = [uri.host ?? "localhost", "\(uri.port)", uri.database, uri.user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(line)
            guard fields.count == 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// The colon-separated fields of a line, unescaped.
    private static func split(_ line: Substring) -> [String] {
        var fields: [String] = [""]
        var escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 5 {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }
}
