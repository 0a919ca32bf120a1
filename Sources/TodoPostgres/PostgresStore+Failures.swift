import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import SharedStoreContract

/// What went wrong with PostgreSQL, in words: postgres-nio's errors describe themselves with
/// its own names, so each is told here as what happened and what to do about it.
extension PostgresStore {
    static let nothingWritten = "nothing was written"

    /// The advice while the store cannot be reached.
    static let reconnects = "todod reconnects by itself: try again once PostgreSQL is back"

    static let atStart = "check that PostgreSQL runs there, that the user may connect (pg_hba.conf, the password in ~/.pgpass or $PGPASSWORD) and that the database exists (createdb)"

    /// Runs `body`, turning postgres-nio's errors into a `SharedStoreError` saying what failed,
    /// why, that `nothing` happened, and what to do: `whenUnreachable` when PostgreSQL could not
    /// be reached, else what PostgreSQL's refusal calls for.
    static func attempt<T>(
        _ what: String, nothing: String = nothingWritten, whenUnreachable: String = reconnects, _ body: () throws -> T
    ) throws -> T {
        do {
            return try body()
        } catch let error as SharedStoreError {
            throw error
        } catch {
            let unreachable = isUnreachable(error)
            let advice = unreachable ? "\(nothing); \(whenUnreachable)" : refusalAdvice(error, nothing: nothing)
            throw SharedStoreError("could not \(what): \(reason(error)); \(advice)", kind: unreachable ? .unreachable : .failed,
                                   cause: unreachable ? reason(error) : nil)
        }
    }

    /// Whether `error` says the store could not be reached, rather than that it refused:
    /// cut off, silent past the deadline, or shutting down or starting up (SQLSTATE 57P0x).
    static func isUnreachable(_ error: any Error) -> Bool {
        // A socket this user may not reach, or a host= that is no directory: the setup's to fix, not an outage to wait out.
        if let errno = socketErrno(error), [EACCES, EPERM, ENOTDIR].contains(errno) { return false }
        if error is Deadline.Expired || error is IOError || error is NIOConnectionError || error is SocketAddressError { return true }
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return state.hasPrefix("57P0") || state == undefinedTable }
        return [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown].contains(error.code)
    }

    /// What to do about PostgreSQL's refusal, by its SQLSTATE.
    private static func refusalAdvice(_ error: any Error, nothing: String) -> String {
        guard let error = error as? PSQLError else { return nothing }
        if error.code == .authMechanismRequiresPassword {
            return "\(nothing): put the password in ~/.pgpass (HOST:PORT:DB:USER:PASSWORD, chmod 600) or $PGPASSWORD; todod reads them at each connection"
        }
        if error.code == .messageDecodingFailure || error.code == .unexpectedBackendMessage {
            return "\(nothing): check the host and port of the URI"
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        switch state {
        case "55P03": return lockTimedOut
        case undefinedDatabase: return "\(nothing): create the database (createdb NAME), or name one that exists"
        case "42501", "42703", "25006":
            return "\(nothing): \(tablesAdvice)"
        case _ where state.hasPrefix("28"):
            return "\(nothing): fix the role or its password (~/.pgpass or $PGPASSWORD, read at each connection), or the server's pg_hba.conf"
        default: return nothing
        }
    }

    /// PostgreSQL's `lock_timeout` (`sessionSettings`) ran out while another session held the write lock.
    static let lockTimedOut = """
        another daemon held the write lock for over 10 s (a large import, or a daemon stopped in the middle of a write, \
        whose session PostgreSQL ends after 30 s), so nothing was written: try again shortly
        """

    /// Why the tables cannot be made or used, as a rule: the role, or a read-only server.
    static let tablesAdvice = """
        every todod must connect as a role that may create and write todod's tables (counter, journal, todo, purge, push) in the \
        database's public schema: the one role of the setup in docs/SEVERAL-MACHINES.md (createdb --owner), or grant it (GRANT ALL ON SCHEMA \
        public, and ALL on those tables, TO the role); and to a server that takes writes (not a standby)
        """

    /// Why a Unix socket could not be reached when its file is not there.
    static let noSocket = "there is no PostgreSQL socket there: is PostgreSQL running, and is host= its socket directory?"

    /// The SQLSTATE of a database that is not there: a name to fix at start, an outage once
    /// it was used (`connect`).
    static let undefinedDatabase = "3D000"

    /// The SQLSTATE of a table that is not there: todod's, once made, only when its database
    /// was dropped and made again, or is being restored (see `createTables`).
    static let undefinedTable = "42P01"

    /// What went wrong, from the server's message when there is one, else from the socket's.
    static func reason(_ error: any Error) -> String {
        if let error = error as? SharedStoreError { return error.message }
        if let error = error as? PSQLError, error.serverInfo?[.sqlState] == undefinedTable {
            return """
                todod's tables are not in the database any more (it was dropped and made again, or is being restored: \
                restore it in one transaction, psql --single-transaction, and todod goes on once it is back; with no backup, \
                fill it from a replica: stop that replica's todod and run todod --migrate-to with its --database)
                """
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            switch error.code {
            case .connectionError: return error.underlying.map(unreachableReason) ?? "PostgreSQL cannot be reached"
            case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown: return "the connection to PostgreSQL was closed"
            case .authMechanismRequiresPassword: return "the server asks for a password, and none was found"
            case .messageDecodingFailure, .unexpectedBackendMessage: return "what answers there does not speak PostgreSQL's protocol"
            default: return error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)"
            }
        }
        return unreachableReason(error)
    }

    /// The errno a connection failed with, however postgres-nio and NIO wrap it.
    private static func socketErrno(_ error: any Error) -> Int32? {
        let error = (error as? PSQLError)?.underlying ?? error
        let failures = (error as? NIOConnectionError)?.connectionErrors.map(\.error) ?? [error]
        return failures.compactMap { ($0 as? IOError)?.errnoCode }.first
    }

    /// Why a connection could not be made: the socket's errno in words, or the name lookup's.
    private static func unreachableReason(_ error: any Error) -> String {
        let failures = (error as? NIOConnectionError)?.connectionErrors.map(\.error) ?? [error]
        if let address = failures.first(where: { $0 is SocketAddressError }) ?? (error as? NIOConnectionError)?.dnsAAAAError
            ?? (error as? NIOConnectionError)?.dnsAError {
            if let unknown = address as? SocketAddressError.UnknownHost {
                return "the host name \(unknown.host) cannot be resolved: check its spelling, and the DNS or /etc/hosts"
            }
            if let address = address as? SocketAddressError, address == .unixDomainSocketPathTooLong {
                return "the socket's path is too long for a Unix socket (107 bytes at most): use a shorter host= directory"
            }
            return "the host name cannot be resolved (\(address))"
        }
        guard let errno = socketErrno(error) else { return "PostgreSQL cannot be reached (\(error))" }
        switch errno {
        // A sandbox (the systemd unit's RestrictAddressFamilies=AF_UNIX) forbids network sockets.
        case EAFNOSUPPORT:
            return "todod may not open network sockets here: under systemd, add RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 beside Environment=TODOD_STORE=… in the unit's drop-in (systemctl --user edit todod.service)"
        case ENOENT: return noSocket
        case ECONNREFUSED: return "nothing listens there (connection refused): is PostgreSQL running, and listening there (listen_addresses, port)?"
        case EACCES, EPERM:
            return """
                this user may not reach PostgreSQL's socket there (permission denied): each directory on the way to it must be \
                searchable by the user todod runs as (chmod o+x, or a group both share), as PostgreSQL's own /var/run/postgresql \
                is, and the socket writable by it (unix_socket_permissions, unix_socket_group)
                """
        case ENOTDIR: return "host= names a file, not a directory: give the directory PostgreSQL keeps its socket in (unix_socket_directories)"
        default: return "PostgreSQL cannot be reached (\(String(cString: strerror(errno))))"
        }
    }
}
