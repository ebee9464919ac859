/// A response made on the request path (404 near misses, 405, control errors, admin answers).
public struct Reply: Sendable {
    /// HTTP status.
    public var status: Int
    /// Headers, Content-Type included.
    public var headers: [HTTPHeader]
    /// Body bytes.
    public var body: [UInt8]

    /// Makes a reply.
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON reply, pretty-printed so a developer reading curl output sees the structure.
    public static func json(_ status: Int, _ value: JSONValue, headers: [HTTPHeader] = []) -> Reply {
        var all = [HTTPHeader("Content-Type", "application/json; charset=utf-8")]
        for h in headers { all.set(h.name, h.value) }
        return Reply(status: status, headers: all, body: Array((value.serialized(pretty: true) + "\n").utf8))
    }

    /// A JSON error reply: `{"error": message, ...details}`.
    public static func error(_ status: Int, _ message: String, _ details: [(key: String, value: JSONValue)] = [], headers: [HTTPHeader] = []) -> Reply {
        json(status, .object([("error", .string(message))] + details), headers: headers)
    }
}
