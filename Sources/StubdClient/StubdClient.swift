#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Steers a running stubd over its admin API, from any process: an XCUITest target, a test
/// suite that starts `stubd serve` itself, a script. It needs only Foundation, so it builds for
/// iOS, macOS and Linux. Its calls mirror `StubServer`'s control API (`override`, `sequence`,
/// `clearOverride`, `journal`, `waitForRequests`, `reset`), made async, so a test moves
/// from an in-process server to a daemon by changing the line that makes it.
public final class StubdClient: Sendable {
    /// The daemon's base URL, like `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The session every call is scoped to unless a call names another; nil is the global scope.
    public let session: String?
    /// The admin token sent as `Authorization: Bearer`.
    let tokenForRequests: String?
    let urlSession: URLSession

    /// A client for the stubd at `baseURL`; `adminToken` when the daemon runs with `--admin-token`.
    public init(baseURL: URL, session: String? = nil, adminToken: String? = nil, urlSession: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
        self.tokenForRequests = adminToken
        self.urlSession = urlSession
    }

    /// Waits until `GET /__stubd/health` answers `ok`; throws `StubdClientError.timedOut` after `timeout` seconds.
    public func waitUntilHealthy(timeout: Double = 10) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))  // monotonic: the wall clock may step
        while ContinuousClock.now < deadline {
            if let health = try? await health(), health.status == .ok { return }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw StubdClientError.timedOut("stubd at \(baseURL) was not healthy within \(timeout) s")
    }

    /// The daemon's health: `ok`, or `degraded` with the problems of the last failed reload.
    public func health() async throws -> Health {
        try await call("GET", "health", as: Health.self)
    }

    /// Every route with its variants, default and current override.
    public func routes() async throws -> [RouteInfo] {
        try await call("GET", "routes", as: RouteList.self).routes
    }

    /// Serves `variant`, waits `delayMs` or fails with `fault` on `route` until cleared (a PUT that
    /// replaces the route's whole override in the session).
    public func override(route: String, variant: String? = nil, delayMs: Int? = nil, fault: Fault? = nil, session: String? = nil) async throws {
        var body: [String: Any] = [:]
        if let variant { body["variant"] = variant }
        if let delayMs { body["delay"] = ["ms": delayMs] }
        if let fault { body["fault"] = fault.rawValue }
        try await send("PUT", "routes/\(route)", json: body, session: session)
    }

    /// Serves `variants` to the next requests of `route`, in order, then the usual choice.
    public func sequence(route: String, _ variants: [String], session: String? = nil) async throws {
        try await send("PUT", "routes/\(route)", json: ["sequence": variants], session: session)
    }

    /// Removes the override and sequence of `route`.
    public func clearOverride(route: String, session: String? = nil) async throws {
        try await send("DELETE", "routes/\(route)", session: session)
    }

    /// The journal (`GET /__stubd/journal`), oldest first, filtered by route, method, path and
    /// GraphQL operation.
    public func journal(route: String? = nil, method: String? = nil, path: String? = nil, operation: String? = nil,
                        session: String? = nil) async throws -> [ReceivedRequest] {
        let query = [("route", route), ("method", method), ("path", path), ("operation", operation)].compactMap { name, value in value.map { (name, $0) } }
        return try await call("GET", "journal", query: query, session: session, as: Journal.self).requests
    }

    /// The old name of `journal(route:method:path:session:)`.
    @available(*, deprecated, renamed: "journal(route:method:path:session:)")
    public func receivedRequests(route: String? = nil, method: String? = nil, path: String? = nil, session: String? = nil) async throws -> [ReceivedRequest] {
        try await journal(route: route, method: method, path: path, session: session)
    }

    /// How many journaled requests match, in one call (`GET /__stubd/journal/count`).
    public func count(route: String? = nil, method: String? = nil, path: String? = nil, session: String? = nil) async throws -> Int {
        let query = [("route", route), ("method", method), ("path", path)].compactMap { name, value in value.map { (name, $0) } }
        return try await call("GET", "journal/count", query: query, session: session, as: Count.self).count
    }

    /// Waits until the journal holds `count` requests for `route` (or `timeout` seconds pass) and
    /// returns them: for requests an app sends in the background.
    public func waitForRequests(route: String? = nil, count: Int = 1, timeout: Double = 5, session: String? = nil) async throws -> [ReceivedRequest] {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))  // monotonic: the wall clock may step
        while true {
            let found = try await journal(route: route, session: session)
            if found.count >= count || ContinuousClock.now >= deadline { return found }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// Clears overrides, sequences and the journal of the session.
    public func reset(session: String? = nil) async throws {
        try await send("POST", "reset", session: session)
    }

    /// Reloads the stub directory now; throws `StubdClientError.status` with the problems when it has any.
    public func reload() async throws {
        try await send("POST", "reload")
    }
}

/// What went wrong talking to stubd.
public enum StubdClientError: Error, CustomStringConvertible {
    /// stubd answered with this status and body (an unknown route or variant, a missing token).
    case status(Int, String)
    /// A wait ran out.
    case timedOut(String)

    /// The status and stubd's explanation.
    public var description: String {
        switch self {
        case .status(let code, let body): return "stubd answered \(code): \(body)"
        case .timedOut(let what): return what
        }
    }
}
