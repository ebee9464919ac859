/// Keeps web pages away from the admin API and the dashboard. stubd runs on a developer's machine
/// next to a browser: without this, any page could POST to `/__stubd/reset` (a form or a no-cors
/// fetch needs no preflight), and a page on a name rebound to 127.0.0.1 could read the journal as
/// its own origin. So a call that a browser marks as coming from another page (a foreign `Origin`,
/// or `Sec-Fetch-Site` of `cross-site` or `same-site`) gets 403, and on a loopback bind without an
/// admin token only a loopback `Host` is answered (421 otherwise). curl, scripts, `StubdClient` and
/// URLSession send neither header and are not affected; the dashboard's own page is same-origin.
/// The stubbed API routes are not guarded: they stay open to any origin.
package struct AdminGuard: Sendable {
    /// Whether `Host` must name this machine: on a loopback bind without an admin token, where a
    /// rebound name is the only way a page reaches the API as its own origin.
    package var checksHost: Bool
    /// Host names answered besides loopback ones (`--allow-host`), lowercased, without a port.
    package var allowedHosts: [String]

    /// Guards nothing but the browser headers (a bind to all addresses, or a token set).
    package init(checksHost: Bool = false, allowedHosts: [String] = []) {
        self.checksHost = checksHost
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
    }

    /// The refusal of an admin request, or nil when it may go on.
    package func refusal(_ request: StubRequest) -> Reply? {
        let host = request.header("Host")
        if checksHost, !answers(host: host) {
            return .error(421, "admin calls answer a loopback host name only", [
                ("host", .string(host ?? "")), ("expected", .string("localhost, 127.0.0.1 or [::1], or a name given with --allow-host")),
                ("hint", .string("a page on another name must not reach the admin API; a shared stubd: --allow-host NAME or --admin-token")),
            ])
        }
        if let site = request.header("Sec-Fetch-Site")?.lowercased(), site == "cross-site" || site == "same-site" {
            return .error(403, "admin calls from another site's page are refused", [("Sec-Fetch-Site", .string(site))])
        }
        if let origin = request.header("Origin"), !AdminGuard.isSameOrigin(origin, host: host, scheme: request.scheme) {
            return .error(403, "admin calls from another origin are refused", [
                ("origin", .string(origin)), ("expected", .string("the dashboard's own origin, or no Origin (curl, scripts, StubdClient)")),
            ])
        }
        return nil
    }

    /// True for a `Host` naming a loopback address, `localhost` (or a name under `.localhost`,
    /// which browsers resolve to loopback themselves), or an allowed name; any port. No `Host` at
    /// all is no browser (they always send one): an HTTP/1.0 health check, such as HAProxy's.
    func answers(host: String?) -> Bool {
        guard let host else { return true }
        let name = AdminGuard.name(ofHost: host)
        guard !name.isEmpty else { return false }
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || allowedHosts.contains(name) { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// A `Host` value without its port and brackets, lowercased: `[::1]:8080` → `::1`.
    static func name(ofHost host: String) -> String {
        let text = host.lowercased()
        if text.hasPrefix("[") { return String(text.dropFirst().prefix { $0 != "]" }) }
        guard let colon = text.lastIndex(of: ":"), text[text.index(after: colon)...].allSatisfy(\.isNumber) else { return text }
        return String(text[..<colon])
    }

    /// True when `origin` (`scheme://host[:port]`) is the origin the request was asked as: its
    /// scheme, and `host` with the same port, a scheme's default port written or not.
    static func isSameOrigin(_ origin: String, host: String?, scheme: RequestScheme) -> Bool {
        guard let host, let schemeEnd = origin.firstRange(of: "://"), origin[..<schemeEnd.lowerBound].lowercased() == scheme.rawValue else { return false }
        let port = scheme == .https ? "443" : "80"
        func withPort(_ authority: Substring) -> String {
            let text = authority.lowercased()
            let hasPort = text.hasPrefix("[") ? text.contains("]:") : text.contains(":")
            return hasPort ? text : "\(text):\(port)"
        }
        return withPort(origin[schemeEnd.upperBound...]) == withPort(Substring(host))
    }
}
