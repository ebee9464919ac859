/// A scripted WebSocket conversation: a variant's `conversation` in route.json. What the server
/// sends when the connection opens, how it answers each client message, and how it ends.
public struct Conversation: Sendable {
    /// One message the server sends, after its delay (counted from the message before it in the
    /// same list, or from the event that started the list).
    public struct Message: Sendable, Equatable {
        /// Text (sent as a text frame) or bytes (a binary frame).
        public enum Payload: Sendable, Equatable {
            case text(String)
            case binary([UInt8])
            /// The client's message being answered, sent back as it came (text or binary).
            case echo
        }

        public let payload: Payload
        public let delay: DelaySpec?
        /// With `"template": true`: the text with the handshake's and the client message's values
        /// filled in when it is sent (`OpenConversation.render`).
        package var template: ResponseTemplate?

        package init(payload: Payload, delay: DelaySpec? = nil) {
            self.payload = payload
            self.delay = delay
        }

        /// Same payload and delay, both templates or neither (a template is its payload's text).
        public static func == (lhs: Message, rhs: Message) -> Bool {
            lhs.payload == rhs.payload && lhs.delay == rhs.delay && (lhs.template == nil) == (rhs.template == nil)
        }
    }

    /// How the server ends the conversation: a close frame with `code` and `reason`, or, when
    /// `drop`, the connection closed without one (a server that died).
    public struct Ending: Sendable, Equatable {
        public let code: Int
        public let reason: String
        public let drop: Bool
        /// End once this many client messages have arrived (and been answered).
        public let afterMessages: Int?
        /// End this long after the connection opened, in ms.
        public let afterMs: Int?

        package init(code: Int = 1000, reason: String = "", drop: Bool = false, afterMessages: Int? = nil, afterMs: Int? = nil) {
            self.code = code
            self.reason = reason
            self.drop = drop
            self.afterMessages = afterMessages
            self.afterMs = afterMs
        }
    }

    /// An answer to client messages: the first reply whose `when` holds for a message is used.
    public struct Reply: Sendable {
        public let condition: MessageCondition?
        public let send: [Message]
        /// Ends the conversation after `send` (its `afterMessages` and `afterMs` are not used).
        public let close: Ending?

        package init(condition: MessageCondition?, send: [Message], close: Ending? = nil) {
            self.condition = condition
            self.send = send
            self.close = close
        }
    }

    /// A way the socket fails, as real servers do, and when (`"fault"` in a conversation).
    public struct SocketFault: Sendable, Equatable {
        public enum Kind: String, Sendable, CaseIterable {
            /// The server stops answering: no replies, no pongs; what the client sends is read
            /// and dropped until it leaves.
            case hang
            /// A frame cut in the middle, then the connection closed.
            case cut
        }

        public let kind: Kind
        public let afterMessages: Int?
        public let afterMs: Int?

        package init(kind: Kind, afterMessages: Int? = nil, afterMs: Int? = nil) {
            self.kind = kind
            self.afterMessages = afterMessages
            self.afterMs = afterMs
        }
    }

    public let onOpen: [Message]
    public let replies: [Reply]
    public let ending: Ending?
    public let fault: SocketFault?
    /// Outgoing frames are written at most this many bytes per second (`"throttle"`).
    public let bytesPerSecond: Int?
    /// How often the server pings the client (`"ping": {"everyMs": N}`), nil for never; the
    /// client's pongs are read and dropped.
    package var pingEveryMs: Int? = nil
    /// For a GraphQL endpoint's WebSocket: the conversation is the subscription protocol, each
    /// `subscribe` answered by the operation route it names; the script above is not used.
    package var graphQL: GraphQLSocket? = nil

    package init(onOpen: [Message] = [], replies: [Reply] = [], ending: Ending? = nil, fault: SocketFault? = nil, bytesPerSecond: Int? = nil) {
        self.onOpen = onOpen
        self.replies = replies
        self.ending = ending
        self.fault = fault
        self.bytesPerSecond = bytesPerSecond
    }

    /// The first reply for a client message (`text` for a text frame, nil for binary), or nil.
    package func reply(to bytes: [UInt8], text: String?) -> Reply? {
        replies.first { $0.condition?.holds(bytes: bytes, text: text) ?? true }
    }
}

/// Conditions on one client message (`when` of a reply): every one given must hold.
public struct MessageCondition: Sendable {
    /// The whole text, exactly.
    public let text: String?
    /// A regular expression found anywhere in the text (anchor it with `^…$` for the whole).
    public let matches: String?
    /// Top-level fields of a JSON message, as `when.body` compares a request's (`"*"`: present).
    public let body: [String: String]

    package init(text: String? = nil, matches: String? = nil, body: [String: String] = [:]) {
        self.text = text
        self.matches = matches
        self.body = body
    }

    /// True when the message (its `text` when it is a text frame) satisfies every condition.
    package func holds(bytes: [UInt8], text messageText: String?) -> Bool {
        if let text, messageText != text { return false }
        if let matches {
            guard let messageText, let regex = try? Regex(matches), messageText.contains(regex) else { return false }
        }
        if !body.isEmpty {
            let fields = BodyFields.parse(bytes, contentType: "application/json")
            for (name, want) in body {
                guard let got = fields[name], want == "*" || got == want else { return false }
            }
        }
        return true
    }
}

/// What makes a route a WebSocket endpoint (`"websocket"` in route.json).
public struct WebSocketEndpoint: Sendable {
    /// The subprotocols served, in order of preference; the first the client offers is chosen.
    public let subprotocols: [String]

    package init(subprotocols: [String] = []) {
        self.subprotocols = subprotocols
    }
}

extension Conversation {
    /// Whether a message of the script is templated: only then is the handshake kept for it.
    package var hasTemplates: Bool {
        (onOpen + replies.flatMap(\.send)).contains { $0.template != nil }
    }

    /// Whether a templated message reads state or draws values that move.
    package var remembers: Bool {
        (onOpen + replies.flatMap(\.send)).contains { $0.template?.remembers == true }
    }
}
