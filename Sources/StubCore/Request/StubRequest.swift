/// A request as the core sees it: no sockets, just the parts stubs can match on.
public struct StubRequest: Sendable {
    /// Upper-case method.
    public var method: String
    /// The path as sent, without the query (segments are percent-decoded where matched).
    public var path: String
    /// Query parameters in order, percent-decoded.
    public var query: [(name: String, value: String)]
    /// Request headers in order.
    public var headers: [(name: String, value: String)]
    /// The raw body bytes.
    public var body: [UInt8]
    /// How the request arrived.
    public var scheme: RequestScheme

    /// Makes a request.
    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], body: [UInt8] = [], scheme: RequestScheme = .http) {
        self.method = RequestMethod.normalized(method)
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.scheme = scheme
    }

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { ASCIICase.equal($0.name, name) }?.value
    }

    /// The first value of a query parameter.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Top-level fields of a JSON object or form-encoded body, as strings; parsed on each call.
    public var bodyFields: [String: String] {
        BodyFields.parse(body, contentType: header("Content-Type"))
    }
}

/// Plain HTTP or HTTPS. An enum, not a string: a request record is copied on every request, and a
/// string field would cost a retain and a release on each copy.
public enum RequestScheme: String, Sendable {
    /// Plain HTTP.
    case http
    /// HTTP over TLS (`serve --tls`).
    case https
}
