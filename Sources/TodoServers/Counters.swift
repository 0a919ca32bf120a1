import GRDB

/// The `counter` table's values, read and written once per transaction.
struct Counters {
    var number: Int
    var change: Int64

    static func load(_ db: Database) throws -> Counters {
        let values = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db.cachedStatement(sql: "SELECT name, value FROM counter")).map {
            ($0["name"] as String, $0["value"] as Int64)
        })
        return Counters(number: Int(values["number"] ?? 0), change: values["change"] ?? 0)
    }

    func save(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE counter SET value = ? WHERE name = 'number'").execute(arguments: [number])
        try db.cachedStatement(sql: "UPDATE counter SET value = ? WHERE name = 'change'").execute(arguments: [change])
    }
}
