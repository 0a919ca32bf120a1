import Foundation

/// Where the shared store is: a libpq-style connection URI,
/// `postgresql://USER@HOST[:PORT]/DB` or `postgresql://USER@/DB?host=/socket/dir` (a Unix
/// socket directory, as libpq names it; the socket is `DIR/.s.PGSQL.PORT`).
///
/// A password is never taken from the URI (it would show in `ps` and in logs): it comes
/// from `PGPASSWORD` or `~/.pgpass`, as libpq's. TLS is libpq's too: `sslmode` and
/// `sslrootcert`, else `$PGSSLMODE` and `$PGSSLROOTCERT`.
public struct StoreURI: Sendable, Equatable, CustomStringConvertible {
    /// The PostgreSQL role; the login name when the URI names none.
    public var user: String
    /// A host name or address; nil with a socket directory.
    public var host: String?
    /// The directory of the server's Unix socket; nil over TCP.
    public var socketDirectory: String?
    /// The TCP port, or the number in the socket file's name (5432 unless given).
    public var port: Int
    /// The database; the user's name when the URI names none.
    public var database: String
    /// libpq's `sslmode` over TCP: the URI's, else `$PGSSLMODE`, else `prefer` (`verify-full`
    /// with `sslrootcert=system`, as libpq 16's). Ignored over a Unix socket, as libpq ignores it.
    public var sslMode: SSLMode
    /// libpq's `sslrootcert`: the file of CA certificates the server's must be signed by, or
    /// `system` for the system's trust store; nil for libpq's default, `~/.postgresql/root.crt`.
    public var sslRootCertificate: String?

    /// The socket file in `socketDirectory`, as libpq names it.
    public var socketPath: String? { socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } }

    /// The URI without any secret: what logs and messages show. It keeps the TLS settings
    /// that differ from the default, so that a log says how the store is reached.
    public var description: String {
        // An IPv6 address is bracketed, as in the URI, so that its port stays apart.
        let place = host.map { ($0.contains(":") ? "[\($0)]" : $0) + (port == 5432 ? "" : ":\(port)") } ?? ""
        var query: [String] = []
        if let socketDirectory {
            query.append("host=\(socketDirectory)")
            if port != 5432 { query.append("port=\(port)") }
        }
        if sslMode != .prefer { query.append("sslmode=\(sslMode.rawValue)") }
        if let sslRootCertificate { query.append("sslrootcert=\(sslRootCertificate)") }
        return "postgresql://\(user)@\(place)/\(database)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// Parses `text`; `defaultUser` stands for a URI without a user (libpq takes the login name);
    /// `environment` gives `$PGSSLMODE` and `$PGSSLROOTCERT` for a URI without sslmode or sslrootcert.
    /// - Throws: `StoreURIError`, saying what is wrong and what is expected.
    public init(
        _ text: String, defaultUser: String = StoreURI.loginName, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StoreURIError) {
        guard let schemeEnd = text.range(of: "://"), ["postgresql", "postgres"].contains(text[..<schemeEnd.lowerBound].lowercased()) else {
            let shown = text.isEmpty ? "the store URI is empty, which" : text
            throw StoreURIError("\(shown) is not a PostgreSQL URI: write postgresql://USER@HOST/DB, or postgresql://USER@/DB?host=/socket/dir")
        }
        var rest = Substring(text[schemeEnd.upperBound...])
        var queryText: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            queryText = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count).dropFirst()
        var hostPart = authority
        var userPart: Substring?
        if let at = authority.lastIndex(of: "@") {
            userPart = authority[..<at]
            hostPart = authority[authority.index(after: at)...]
        }
        if let userPart, userPart.contains(":") {
            throw StoreURIError("the URI holds a password, which would show in `ps` and in logs: remove it from the URI and put it in ~/.pgpass (HOST:PORT:DB:USER:PASSWORD, chmod 600) or in $PGPASSWORD")
        }
        var user = defaultUser
        if let userPart, !userPart.isEmpty { user = try StoreURI.decoded(userPart) }
        var port = 5432
        var host: String?
        var namedUser: String?
        var namedDatabase: String?
        var namedMode: SSLMode?
        var rootCertificate: String?
        if !hostPart.isEmpty {
            // An IPv6 address is bracketed; a port follows the last colon outside brackets.
            if let colon = hostPart.lastIndex(of: ":"), !hostPart[colon...].contains("]") {
                guard let number = Int(hostPart[hostPart.index(after: colon)...]), (1...65535).contains(number) else {
                    throw StoreURIError("\(text) has no valid port after the host's colon: write HOST:5432, or leave the port out")
                }
                port = number
                hostPart = hostPart[..<colon]
            }
            host = try StoreURI.decoded(hostPart.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))[...])
        }
        for pair in queryText.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let key = String(parts[0])
            let value = try parts.count > 1 ? StoreURI.decoded(parts[1]) : ""
            switch key {
            case "host": host = value
            case "port":
                guard let number = Int(value), (1...65535).contains(number) else {
                    throw StoreURIError("\(text): port=\(value) is not a port number")
                }
                port = number
            case "user": namedUser = value.isEmpty ? nil : value
            case "dbname": namedDatabase = value.isEmpty ? nil : value
            case "password":
                throw StoreURIError("the URI holds a password, which would show in `ps` and in logs: remove it and put it in ~/.pgpass or $PGPASSWORD")
            case "sslmode": namedMode = try StoreURI.sslMode(value, writtenAs: "sslmode=\(value)")
            case "sslrootcert": rootCertificate = value.isEmpty ? nil : value
            default:
                throw StoreURIError("\(text): todod does not know the parameter \(key); it takes host, port, user, dbname, sslmode and sslrootcert")
            }
        }
        rootCertificate = rootCertificate ?? environment["PGSSLROOTCERT"].flatMap { $0.isEmpty ? nil : $0 }
        var mode = namedMode
        if mode == nil, let value = environment["PGSSLMODE"], !value.isEmpty {
            mode = try StoreURI.sslMode(value, writtenAs: "$PGSSLMODE=\(value)")
        }
        // libpq 16: any certificate a public CA signed for any name would pass a weaker check.
        if rootCertificate == "system", let mode, mode != .verifyFull {
            throw StoreURIError("sslmode \(mode.rawValue) is too weak for sslrootcert=system: a public CA signs certificates for anyone's host, so only the host name check of verify-full makes them mean something; leave sslmode out or write sslmode=verify-full")
        }
        sslMode = mode ?? (rootCertificate == "system" ? .verifyFull : .prefer)
        sslRootCertificate = rootCertificate
        self.user = namedUser ?? user
        if let namedDatabase {
            database = namedDatabase
        } else {
            database = path.isEmpty ? self.user : try StoreURI.decoded(path)
        }
        self.port = port
        // libpq: a host starting with a slash is a socket directory; no host at all is the default socket directory.
        if let host, host.hasPrefix("/") {
            self.host = nil
            socketDirectory = StoreURI.tidied(host)
        } else if let host, !host.isEmpty {
            // No host name holds a slash: a socket directory missing its leading one, most likely.
            guard !host.contains("/") else {
                throw StoreURIError("host=\(host) is neither a socket directory (those start with /, as host=/\(host)) nor a host name")
            }
            self.host = host
            socketDirectory = nil
        } else {
            self.host = nil
            socketDirectory = "/var/run/postgresql"
        }
    }

    /// `directory` without `.` components, doubled or trailing slashes: one socket directory,
    /// one name, as a port of 5432 given or not is. A replica marked with `host=/run/pg` was
    /// refused as another store's when started with `host=/run/./pg` while the store was
    /// away (outside probe 11, F13). `..` stays: through a symbolic link it is not lexical.
    static func tidied(_ directory: String) -> String {
        "/" + directory.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    /// The login name, which libpq takes for a missing user.
    public static var loginName: String {
        ProcessInfo.processInfo.environment["USER"] ?? NSUserName()
    }

    /// The SSL mode spelled `value`; `written` says where, for the message.
    private static func sslMode(_ value: String, writtenAs written: String) throws(StoreURIError) -> SSLMode {
        guard let mode = SSLMode(rawValue: value) else {
            throw StoreURIError("\(written) is not an SSL mode: write one of \(SSLMode.spelled) (libpq's; verify-full checks the server's certificate and its name)")
        }
        return mode
    }

    private static func decoded(_ text: Substring) throws(StoreURIError) -> String {
        guard let value = String(text).removingPercentEncoding else {
            throw StoreURIError("\(text) is not valid percent-encoding: write %2F for a slash, %40 for an at sign")
        }
        return value
    }
}

/// A store URI that cannot be used; the message says why and what to write.
public struct StoreURIError: Error, Equatable, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
