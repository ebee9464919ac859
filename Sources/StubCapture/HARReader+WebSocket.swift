#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// A browser's WebSocket messages in a HAR entry: Chrome writes them as `_webSocketMessages`,
/// each `{"type": "send" | "receive", "time": seconds, "opcode": 1 | 2, "data": text or base64}`.
extension HARReader {
    /// The entry's messages, text and binary in order (control frames left out); nil when the
    /// entry has none (an HTTP exchange). An empty list is a conversation nobody spoke in.
    func webSocketMessages(_ value: JSONValue?, at path: String) throws(Problem) -> [CapturedMessage]? {
        guard let value else { return nil }
        guard case .array(let items) = value else { throw problem(path, "expected an array of messages", value) }
        var messages: [CapturedMessage] = []
        for (index, item) in items.enumerated() {
            let at = "\(path)[\(index)]"
            guard case .object = item else { throw problem(at, "expected an object", item) }
            let type = try string(item["type"], at: at + ".type")
            guard type == "send" || type == "receive" else { throw problem(at + ".type", "expected \"send\" or \"receive\"", item["type"]) }
            // Opcode 1 is text, 2 binary (base64 in `data`); pings, pongs and closes are the protocol's.
            let opcode = item["opcode"]?.numberValue ?? 1
            guard opcode == 1 || opcode == 2 else { continue }
            let data = try string(item["data"], at: at + ".data")
            var bytes = Array(data.utf8)
            if opcode == 2 {
                guard let decoded = Data(base64Encoded: data, options: .ignoreUnknownCharacters) else {
                    throw Problem(file: file, path: at + ".data", message: "expected base64 (opcode 2 is a binary message)")
                }
                bytes = Array(decoded)
            }
            messages.append(CapturedMessage(sent: type == "send", time: item["time"]?.numberValue, binary: opcode == 2, bytes: bytes))
        }
        return messages
    }
}

extension HARURL {
    /// `ws://` as `http://` and `wss://` as `https://`: a WebSocket's handshake is an HTTP request.
    static func httpScheme(of url: String) -> String {
        let lower = url.lowercased()
        if lower.hasPrefix("ws://") { return "http://" + url.dropFirst(5) }
        if lower.hasPrefix("wss://") { return "https://" + url.dropFirst(6) }
        return url
    }
}
