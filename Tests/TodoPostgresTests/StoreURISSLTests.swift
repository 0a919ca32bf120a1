import Testing
import TodoPostgres

/// `sslmode` and `sslrootcert` as libpq reads them: from the URI, else `$PGSSLMODE` and `$PGSSLROOTCERT`.
@Suite struct StoreURISSLTests {
    /// No environment: what the URI says alone.
    private func parsed(_ text: String, environment: [String: String] = [:]) throws -> StoreURI {
        try StoreURI(text, defaultUser: "alice", environment: environment)
    }

    @Test func everyModeLibpqKnowsIsTakenAsItIsSpelled() throws {
        for (spelled, mode) in [
            ("disable", SSLMode.disable), ("allow", .allow), ("prefer", .prefer), ("require", .require),
            ("verify-ca", .verifyCA), ("verify-full", .verifyFull),
        ] {
            #expect(try parsed("postgresql://alice@db/todos?sslmode=\(spelled)").sslMode == mode)
        }
    }

    @Test func withoutSslmodeTheModeIsPreferAsLibpqsDefault() throws {
        let uri = try parsed("postgresql://alice@db/todos")
        #expect(uri.sslMode == .prefer)
        #expect(uri.sslRootCertificate == nil)
    }

    @Test func anUnknownModeIsRefusedListingTheValidOnes() {
        #expect { try parsed("postgresql://alice@db/todos?sslmode=verify") } throws: { error in
            let message = (error as? StoreURIError)?.message ?? ""
            return message.contains("sslmode=verify is not an SSL mode")
                && message.contains("disable, allow, prefer, require, verify-ca, verify-full")
        }
        #expect(throws: StoreURIError.self) { try parsed("postgresql://alice@db/todos?sslmode=") }
        #expect(throws: StoreURIError.self) { try parsed("postgresql://alice@db/todos?sslmode=REQUIRE") }
    }

    @Test func pgsslmodeStandsForAMissingSslmodeAndTheURIWins() throws {
        let environment = ["PGSSLMODE": "verify-ca"]
        #expect(try parsed("postgresql://alice@db/todos", environment: environment).sslMode == .verifyCA)
        #expect(try parsed("postgresql://alice@db/todos?sslmode=require", environment: environment).sslMode == .require)
        #expect(try parsed("postgresql://alice@db/todos", environment: ["PGSSLMODE": ""]).sslMode == .prefer)
    }

    @Test func anUnknownPgsslmodeIsRefusedNamingTheVariable() {
        #expect { try parsed("postgresql://alice@db/todos", environment: ["PGSSLMODE": "on"]) } throws: { error in
            let message = (error as? StoreURIError)?.message ?? ""
            return message.contains("$PGSSLMODE=on is not an SSL mode") && message.contains("verify-full")
        }
    }

    @Test func sslrootcertNamesTheCAFileAndPgsslrootcertStandsForAMissingOne() throws {
        let uri = try parsed("postgresql://alice@db/todos?sslmode=verify-full&sslrootcert=/etc/todod/ca%20file.crt")
        #expect(uri.sslRootCertificate == "/etc/todod/ca file.crt")
        let environment = ["PGSSLROOTCERT": "/from/env.crt"]
        #expect(try parsed("postgresql://alice@db/todos", environment: environment).sslRootCertificate == "/from/env.crt")
        #expect(try parsed("postgresql://alice@db/todos?sslrootcert=/uri.crt", environment: environment).sslRootCertificate == "/uri.crt")
    }

    @Test func sslrootcertSystemMakesVerifyFullTheDefaultAndRefusesWeakerModes() throws {
        #expect(try parsed("postgresql://alice@db/todos?sslrootcert=system").sslMode == .verifyFull)
        #expect(try parsed("postgresql://alice@db/todos?sslrootcert=system&sslmode=verify-full").sslMode == .verifyFull)
        for weaker in ["disable", "allow", "prefer", "require", "verify-ca"] {
            #expect { try parsed("postgresql://alice@db/todos?sslrootcert=system&sslmode=\(weaker)") } throws: { error in
                ((error as? StoreURIError)?.message ?? "").contains("sslmode \(weaker) is too weak for sslrootcert=system")
            }
        }
        #expect(throws: StoreURIError.self) { try parsed("postgresql://alice@db/todos", environment: ["PGSSLROOTCERT": "system", "PGSSLMODE": "require"]) }
    }

    @Test func theDescriptionKeepsTheTLSSettingsThatDifferFromTheDefault() throws {
        #expect(try parsed("postgresql://alice@db/todos?sslmode=prefer").description == "postgresql://alice@db/todos")
        #expect(
            try parsed("postgresql://alice@db:5433/todos?sslmode=verify-full&sslrootcert=/etc/ca.crt").description
                == "postgresql://alice@db:5433/todos?sslmode=verify-full&sslrootcert=/etc/ca.crt")
        #expect(try parsed("postgresql://alice@db/todos", environment: ["PGSSLMODE": "disable"]).description == "postgresql://alice@db/todos?sslmode=disable")
        #expect(try parsed("postgresql://alice@/todos?host=/tmp/s&sslmode=require").description == "postgresql://alice@/todos?host=/tmp/s&sslmode=require")
    }

    @Test func anotherParameterIsRefusedNamingTheOnesTododTakes() {
        #expect { try parsed("postgresql://alice@db/todos?sslcert=/my.crt") } throws: { error in
            ((error as? StoreURIError)?.message ?? "").contains("host, port, user, dbname, sslmode and sslrootcert")
        }
    }
}
