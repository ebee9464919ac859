#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sessions and the dashboard: what a UI-test target prints or cleans up around a run.
extension StubdClient {
    /// The dashboard for people (`/__stubd/ui`): print it from a UI test's setup to watch and steer
    /// the run in a browser beside the Simulator.
    public var dashboardURL: URL { baseURL.appendingPathComponent("__stubd/ui") }

    /// One session that holds overrides, held requests or journal entries.
    public struct SessionInfo: Decodable, Sendable {
        /// The session's name (`X-Stub-Session`, or the `/__session/NAME/` prefix).
        public let session: String
        /// Routes with an override in this session, sorted.
        public let overriddenRoutes: [String]
        /// Requests of this session held now.
        public let held: Int
        /// This session's entries in the journal.
        public let requests: Int

        enum CodingKeys: String, CodingKey { case session, overrides, held, requests }

        /// Reads the admin API's form; an override's fields are not kept, only which routes have one.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            session = try c.decode(String.self, forKey: .session)
            overriddenRoutes = try c.decode([String: Skipped].self, forKey: .overrides).keys.sorted()
            held = try c.decode(Int.self, forKey: .held)
            requests = try c.decode(Int.self, forKey: .requests)
        }

        /// Any JSON value, read past.
        struct Skipped: Decodable {
            init(from decoder: any Decoder) throws {}
        }
    }

    /// Every session with state on the server, by name.
    public func sessions() async throws -> [SessionInfo] {
        try await call("GET", "sessions", as: SessionList.self).sessions
    }

    /// Clears one session by name: its overrides, sequences and holds (held requests go on) and
    /// its journal entries, as `reset(session:)` does.
    public func clearSession(_ name: String) async throws {
        try await send("DELETE", "sessions/" + name)
    }

    struct SessionList: Decodable { let sessions: [SessionInfo] }
}
