import TodoViewModel

/// One todo as `list --json` and `next --json` print it: its fields, and `blocked: true`
/// when it waits for an open todo (`TodoViewModel.isBlocked`, which `BlockedRows` marks),
/// as the table's `[b]` says; absent otherwise, so the Todo schema is as before for the rest.
/// A todo's own JSON (the wire's) never carries it: blocked is derived from other todos.
struct JSONRow: Encodable {
    let row: TodoViewModel

    private enum CodingKeys: String, CodingKey { case blocked }

    func encode(to encoder: any Encoder) throws {
        try row.encode(to: encoder)
        guard row.isBlocked else { return }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(true, forKey: .blocked)
    }
}
