import Foundation
import Testing
import TodoPostgres

@Suite struct StoreURITests {
    @Test func aUserHostAndDatabaseAreReadAsLibpqReadsThem() throws {
        let uri = try StoreURI("postgresql://alice@db.example.org/todos")
        #expect(uri.user == "alice")
        #expect(uri.host == "db.example.org")
        #expect(uri.port == 5432)
        #expect(uri.database == "todos")
        #expect(uri.socketDirectory == nil)
    }

    @Test func aPortAfterTheHostIsTaken() throws {
        let uri = try StoreURI("postgres://alice@10.0.0.2:6543/todos")
        #expect(uri.host == "10.0.0.2")
        #expect(uri.port == 6543)
    }

    @Test func aHostParameterStartingWithASlashIsTheSocketDirectory() throws {
        let uri = try StoreURI("postgresql://alice@/todos?host=/tmp/pg%20dir")
        #expect(uri.host == nil)
        #expect(uri.socketDirectory == "/tmp/pg dir")
        #expect(uri.socketPath == "/tmp/pg dir/.s.PGSQL.5432")
        #expect(uri.database == "todos")
    }

    @Test func aSocketDirectorySpelledWithDotsOrDoubledSlashesIsOneName() throws {
        let plain = try StoreURI("postgresql://alice@/todos?host=/run/pg")
        for spelled in ["/run/./pg", "/run//pg/", "/./run/pg/.", "//run/pg"] {
            let uri = try StoreURI("postgresql://alice@/todos?host=\(spelled)")
            #expect(uri.socketDirectory == "/run/pg" && uri.description == plain.description, "\(spelled): \(uri)")
        }
        #expect(try StoreURI("postgresql://alice@/todos?host=/run/pg/../pg").socketDirectory == "/run/pg/../pg")
    }

    @Test func aRelativeSocketDirectoryIsRefusedNotTakenForAHostName() {
        #expect(throws: StoreURIError("host=run/pg is neither a socket directory (those start with /, as host=/run/pg) nor a host name")) {
            try StoreURI("postgresql://alice@/todos?host=run/pg")
        }
    }

    @Test func aPercentEncodedSocketDirectoryInTheHostPlaceIsTakenToo() throws {
        let uri = try StoreURI("postgresql://alice@%2Frun%2Fpg:5433/todos")
        #expect(uri.socketPath == "/run/pg/.s.PGSQL.5433")
    }

    @Test func noHostMeansTheDefaultSocketDirectory() throws {
        let uri = try StoreURI("postgresql:///todos", defaultUser: "bob")
        #expect(uri.user == "bob")
        #expect(uri.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
    }

    @Test func aMissingDatabaseIsTheUsersName() throws {
        let uri = try StoreURI("postgresql://carol@localhost")
        #expect(uri.database == "carol")
    }

    @Test func aPasswordInTheURIIsRefusedSayingWhereItBelongs() {
        #expect { try StoreURI("postgresql://alice:secret@host/todos") } throws: { error in
            let message = (error as? StoreURIError)?.message ?? ""
            return message.contains("~/.pgpass") && !message.contains("secret")
        }
        #expect(throws: StoreURIError.self) { try StoreURI("postgresql://alice@host/todos?password=secret") }
    }

    @Test func anotherSchemeOrABadPortIsRefused() {
        #expect(throws: StoreURIError.self) { try StoreURI("mysql://alice@host/todos") }
        #expect(throws: StoreURIError.self) { try StoreURI("/var/lib/todos.sqlite") }
        #expect(throws: StoreURIError.self) { try StoreURI("postgresql://alice@host:99999/todos") }
        #expect(throws: StoreURIError.self) { try StoreURI("postgresql://alice@host/todos?color=blue") }
    }

    @Test func theDescriptionNamesTheStoreWithoutSecrets() throws {
        #expect(try StoreURI("postgresql://alice@/todos?host=/tmp/s").description == "postgresql://alice@/todos?host=/tmp/s")
        #expect(try StoreURI("postgresql://alice@h:5433/todos").description == "postgresql://alice@h:5433/todos")
        #expect(try StoreURI("postgresql://alice@[::1]:5433/todos").description == "postgresql://alice@[::1]:5433/todos")
    }

    @Test func anEmptyURIIsSaidToBeEmpty() {
        #expect(throws: StoreURIError.self) { try StoreURI("") }
        do {
            _ = try StoreURI("")
        } catch {
            #expect(error.message.hasPrefix("the store URI is empty, which is not a PostgreSQL URI"))
        }
    }

    @Test func theFirstMatchingPgpassLineGivesThePasswordWithWildcardsAndEscapes() throws {
        let uri = try StoreURI("postgresql://alice@db/todos")
        let file = """
            # comment
            other:5432:todos:alice:wrong
            db:5432:todos:bob:wrong
            db:*:todos:alice:pa\\:ss\\\\word
            *:*:*:*:fallback
            """
        #expect(PasswordFile.password(for: uri, in: file) == "pa:ss\\word")
        #expect(PasswordFile.password(for: try StoreURI("postgresql://zoe@db/x"), in: file) == "fallback")
    }

    @Test func aSocketConnectionMatchesLocalhostInPgpass() throws {
        let uri = try StoreURI("postgresql://alice@/todos?host=/tmp/s")
        #expect(PasswordFile.password(for: uri, in: "localhost:5432:todos:alice:local") == "local")
    }

    @Test func pgpasswordWinsOverThePasswordFile() throws {
        let uri = try StoreURI("postgresql://alice@db/todos")
        #expect(PasswordFile.lookup(for: uri, environment: ["PGPASSWORD": "fromenv", "PGPASSFILE": "/nonexistent"]).password == "fromenv")
        #expect(PasswordFile.lookup(for: uri, environment: ["PGPASSFILE": "/nonexistent"]) == PasswordFile.Lookup())
    }

    @Test func aPasswordFileOthersMayReadIsIgnoredSayingSoAsLibpqDoes() throws {
        let uri = try StoreURI("postgresql://alice@db/todos")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        try "db:5432:todos:alice:secret\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        chmod(path, 0o644)
        let open = PasswordFile.lookup(for: uri, environment: ["PGPASSFILE": path])
        #expect(open.password == nil)
        #expect(open.ignored == "\(path) is not used: others may read it (mode 644), as libpq refuses it too: chmod 600 \(path)")
        chmod(path, 0o600)
        #expect(PasswordFile.lookup(for: uri, environment: ["PGPASSFILE": path]) == PasswordFile.Lookup(password: "secret"))
    }
}
