import Foundation

/// The password for a store, found as libpq finds it: `$PGPASSWORD`, else the first
/// matching line of `$PGPASSFILE` or `~/.pgpass` (`host:port:database:user:password`, `*`
/// matching anything, `\:` and `\\` escaped). It is never logged. Read at each connection,
/// as libpq reads it: a password changed in the file is taken without a restart.
public enum PasswordFile {
    /// What a lookup found: the password (nil when none is set: the server may not ask for
    /// one), and why a file was passed over.
    public struct Lookup: Sendable, Equatable {
        public var password: String?
        public var ignored: String?

        public init(password: String? = nil, ignored: String? = nil) {
            self.password = password
            self.ignored = ignored
        }
    }

    /// The password for `uri`. A file that others may read is ignored, as libpq ignores it.
    public static func lookup(for uri: StoreURI, environment: [String: String] = ProcessInfo.processInfo.environment) -> Lookup {
        if let password = environment["PGPASSWORD"], !password.isEmpty { return Lookup(password: password) }
        let path = environment["PGPASSFILE"] ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.pgpass"
        var status = stat()
        guard stat(path, &status) == 0 else { return Lookup() }
        guard status.st_mode & 0o077 == 0 else {
            return Lookup(ignored: """
                \(path) is not used: others may read it (mode \(String(status.st_mode & 0o777, radix: 8))), as libpq refuses it too: \
                chmod 600 \(path)
                """)
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return Lookup() }
        return Lookup(password: password(for: uri, in: text))
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
