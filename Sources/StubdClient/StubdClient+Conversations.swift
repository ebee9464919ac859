#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// WebSocket conversations: which are open, what was said, and messages or closes pushed into
/// them from a test (a chat message arriving, the server hanging up) at the moment it chooses.
extension StubdClient {
    /// One conversation as the admin API lists it.
    public struct ConversationInfo: Decodable, Sendable {
        /// Its number, for `sendToConversation` and `closeConversation`.
        public let id: Int
        /// The route's id (`chat/room`).
        public let route: String
        /// The variant its handshake picked.
        public let variant: String
        /// The handshake's path.
        public let path: String
        /// The handshake's session, when it had one.
        public let session: String?
        /// The subprotocol chosen, when the client offered one stubd speaks.
        public let subprotocol: String?
        /// The handshake's `Origin` header, when sent.
        public let origin: String?
        /// `open` or `ended`.
        public let state: String
        /// Messages from the client so far.
        public let messagesIn: Int
        /// Messages from stubd so far.
        public let messagesOut: Int
        /// How it ended, once it has.
        public let ending: Ending?

        /// Who closed and with what: `by` is `server`, `client`, `violation`, `dropped` or `stopped`.
        public struct Ending: Decodable, Sendable {
            /// `server`, `client`, `violation`, `dropped` or `stopped`.
            public let by: String
            /// The close code, when a close frame carried one.
            public let code: Int?
            /// The close reason, empty when none was given.
            public let reason: String
        }
    }

    /// The conversations (open ones first, then the last ended), of one route when given.
    public func conversations(route: String? = nil, openOnly: Bool = false, session: String? = nil) async throws -> [ConversationInfo] {
        var query: [(String, String)] = []
        if let route { query.append(("route", route)) }
        if openOnly { query.append(("open", "true")) }
        return try await call("GET", "conversations", query: query, session: session, as: ConversationList.self).conversations
    }

    /// Pushes `text` into every open conversation of `route` (every open one when nil); how many.
    @discardableResult
    public func sendToConversations(route: String? = nil, text: String, session: String? = nil) async throws -> Int {
        var body: [String: Any] = ["text": text]
        if let route { body["route"] = route }
        return try await call("POST", "conversations/send", json: body, session: session, as: Sent.self).sent
    }

    /// Pushes `text` into conversation `id`.
    public func sendToConversation(_ id: Int, text: String) async throws {
        try await send("POST", "conversations/\(id)/send", json: ["text": text])
    }

    /// Pushes a GraphQL subscription's `next` (`payload` as its JSON object, `["data": …]`) into
    /// subscription `subscription` (every running one when nil) of each open GraphQL socket;
    /// how many sockets it reached.
    @discardableResult
    public func sendNext(_ payload: [String: Any], subscription: String? = nil, session: String? = nil) async throws -> Int {
        var body: [String: Any] = ["next": payload]
        if let subscription { body["subscription"] = subscription }
        return try await call("POST", "conversations/send", json: body, session: session, as: Sent.self).sent
    }

    /// Closes every open conversation of `route` (every open one when nil) with `code`; how many.
    @discardableResult
    public func closeConversations(route: String? = nil, code: Int = 1000, reason: String = "", session: String? = nil) async throws -> Int {
        var body: [String: Any] = ["code": code, "reason": reason]
        if let route { body["route"] = route }
        return try await call("POST", "conversations/close", json: body, session: session, as: Closed.self).closed
    }

    /// Closes conversation `id` with `code`.
    public func closeConversation(_ id: Int, code: Int = 1000, reason: String = "") async throws {
        try await send("POST", "conversations/\(id)/close", json: ["code": code, "reason": reason])
    }

    struct ConversationList: Decodable { let conversations: [ConversationInfo] }
    struct Sent: Decodable { let sent: Int }
    struct Closed: Decodable { let closed: Int }
}
