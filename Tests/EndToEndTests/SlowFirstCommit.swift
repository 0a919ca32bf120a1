import TestHarness

extension PostgresServer {
    /// A deferred trigger that holds the first COMMIT of a todo titled "slow…" for 20 s, so
    /// that a test can cut the connection, or kill the daemon, at that moment. Only the first:
    /// a change the daemon then kept on its machine is shared later without sleeping again
    /// (`nextval` is not rolled back with the transaction).
    func slowTheFirstCommitOfASlowTodo() async throws {
        _ = try await psql("""
            CREATE SEQUENCE slow_once;
            CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.entry->'after'->>'title' LIKE 'slow%' THEN
                    IF nextval('slow_once') = 1 THEN PERFORM pg_sleep(20); END IF;
                END IF;
                RETURN NULL;
            END $$;
            CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON journal DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION slow_commit();
            """)
    }

    /// Waits until a COMMIT sleeps in that trigger.
    func awaitSlowCommit() async throws {
        try await awaitValue(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'todod' AND query = 'COMMIT' AND wait_event = 'PgSleep'", "1", timeout: 60)
    }
}
