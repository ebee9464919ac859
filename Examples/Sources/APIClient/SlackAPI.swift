import Foundation

/// A slice of Slack's Web API (Stubs/slack). Slack answers errors with HTTP 200 and
/// `{"ok": false, "error": "code"}`; posts are form-encoded, as Slack clients send them.
public enum SlackAPI: TargetType {
    /// `GET /emoji.list`: the workspace's custom emoji.
    case emojiList(token: String)
    /// `POST /chat.postMessage`, form-encoded.
    case postMessage(token: String, channel: String, text: String)

    /// Slack's production root.
    public var baseURL: URL { URL(string: "https://slack.com/api")! }

    /// The method name under `/api`.
    public var path: String {
        switch self {
        case .emojiList: return "emoji.list"
        case .postMessage: return "chat.postMessage"
        }
    }

    /// POST for posting, GET otherwise.
    public var method: HTTPMethod {
        if case .postMessage = self { return .post }
        return .get
    }

    /// A form body for posting.
    public var task: RequestTask {
        switch self {
        case .emojiList: return .plain
        case .postMessage(_, let channel, let text): return .form([("channel", channel), ("text", text)])
        }
    }

    /// The bearer token.
    public var headers: [String: String] {
        switch self {
        case .emojiList(let token), .postMessage(let token, _, _): return ["Authorization": "Bearer \(token)"]
        }
    }

    /// Slack's keys are snake_case.
    public var usesSnakeCase: Bool { true }

    /// `ok: false` is an error whatever the status; a non-2xx without the envelope is one too.
    public func error(status: Int, body: Data) -> (any Error)? {
        if let answer = try? JSONDecoder().decode(SlackStatus.self, from: body), !answer.ok {
            return SlackError(code: answer.error ?? "unknown", status: status)
        }
        return (200..<300).contains(status) ? nil : APIError.status(status)
    }
}

/// Slack's error code (`invalid_auth`, `channel_not_found`, `ratelimited`).
public struct SlackError: Error, Equatable {
    /// Slack's error code.
    public let code: String
    /// The HTTP status it came with.
    public let status: Int

    /// An error with Slack's code and the HTTP status it came with (usually 200).
    public init(code: String, status: Int) {
        self.code = code
        self.status = status
    }
}

struct SlackStatus: Decodable {
    let ok: Bool
    let error: String?
}

/// `emoji.list`: names to image URLs or `alias:other`.
public struct EmojiList: Decodable, Sendable {
    /// Name to image URL, or `alias:<name>`.
    public let emoji: [String: String]
}

/// `chat.postMessage`: where and when the message went.
public struct PostedMessage: Decodable, Sendable {
    /// The channel id.
    public let channel: String
    /// The message's timestamp id.
    public let ts: String
    /// The message as posted.
    public let message: Message

    /// The posted message.
    public struct Message: Decodable, Sendable {
        /// Its text.
        public let text: String
        /// The bot that posted it (`bot_id`).
        public let botId: String?
    }
}
