/// A response made on the request path (404 near misses, 405, control errors, admin answers).
package struct Reply: Sendable {
    /// HTTP status.
    package var status: Int
    /// Headers, Content-Type included.
    package var headers: [HTTPHeader]
    /// Body bytes.
    package var body: [UInt8]

    /// Makes a reply.
    package init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON reply, pretty-printed so a developer reading curl output sees the structure.
    package static func json(_ status: Int, _ value: JSONValue, headers: [HTTPHeader] = []) -> Reply {
        var all = [HTTPHeader("Content-Type", "application/json; charset=utf-8")]
        for h in headers { all.set(h.name, h.value) }
        return Reply(status: status, headers: all, body: Array((value.serialized(pretty: true) + "\n").utf8))
    }

    /// A JSON error reply: `{"error": message, ...details}`.
    package static func error(_ status: Int, _ message: String, _ details: [(key: String, value: JSONValue)] = [], headers: [HTTPHeader] = []) -> Reply {
        json(status, .object([("error", .string(message))] + details), headers: headers)
    }
}
