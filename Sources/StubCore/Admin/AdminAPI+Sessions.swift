/// `/__stubd/sessions`: the sessions that hold overrides, holds or journal entries, and clearing
/// one (what `POST /__stubd/reset` does with the session header, by name).
extension AdminAPI {
    func sessions(_ request: StubRequest, parts: [String]) -> Reply {
        if parts.count == 1 {
            guard request.method == "GET" else { return notAllowed(["GET"]) }
            let list = control.sessionSummaries().map { s -> JSONValue in
                .object([("session", .string(s.name)), ("overrides", .object(s.overrides.map { ($0.route, $0.override.json) })),
                         ("held", .number(Double(s.held))), ("requests", .number(Double(s.requests)))])
            }
            return .json(200, .object([("sessions", .array(list))]))
        }
        guard request.method == "DELETE" else { return notAllowed(["DELETE"]) }
        // The name as sent after `sessions/`, slashes and empty segments kept (`a//b` is its own session).
        let name = String(request.path.dropFirst((Limits.adminPrefix + "sessions/").count))
        control.reset(session: name)
        return .json(200, .object([("session", .string(name)), ("reset", .bool(true))]))
    }
}
