/// A request as the transport holds it, read by lookup: the core asks only for the headers and
/// query parameters that controls, `when` conditions and templates name, so a plain request costs
/// no copy of every header. The whole request is copied once, in `snapshot()`, when the journal
/// or the access log takes it.
package protocol RequestHead {
    /// The method as received.
    var method: String { get }
    /// The decoded path, without the query.
    var path: String { get }
    /// The raw body bytes (cut at `Limits.requestBodyBytes`).
    var body: [UInt8] { get }
    /// The first value of a header, compared case-insensitively.
    func header(_ name: String) -> String?
    /// The first value of a query parameter, percent-decoded.
    func queryValue(_ name: String) -> String?
    /// Every query parameter in order.
    func allQueryParameters() -> [(name: String, value: String)]
    /// Every header in order.
    func allHeaders() -> [(name: String, value: String)]
}

extension RequestHead {
    /// The request as the journal keeps it: control query parameters removed, the method upper-cased.
    package func snapshot() -> StubRequest {
        var query = allQueryParameters()
        query.removeAll { RequestControls.queryNames.contains($0.name) }
        return StubRequest(method: method, path: path, query: query, headers: allHeaders(), body: body)
    }
}

extension StubRequest: RequestHead {
    /// Every query parameter in order.
    package func allQueryParameters() -> [(name: String, value: String)] { query }
    /// Every header in order.
    package func allHeaders() -> [(name: String, value: String)] { headers }
}
