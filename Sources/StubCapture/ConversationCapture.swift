#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// The conversation a captured WebSocket's messages become. The server's messages before the
/// client's first are `onOpen`; each client message gets a reply holding the server's messages
/// up to the client's next one, each after the delay it came after. A reply is chosen by the
/// message's stable JSON fields (`when.body`: short, non-secret strings and booleans, so ids and
/// timestamps that change from run to run do not stop it matching) or, for text, its exact text;
/// a message sent again with the same `when` keeps its first answer. JSON is written as `json`
/// with secrets taken out as in bodies.
struct ConversationCapture {
    let policy: SecretPolicy

    /// The `conversation` object; how many client messages repeated an earlier one's `when`, and
    /// how many server messages answered those and are not written.
    func conversation(_ messages: [CapturedMessage], report: inout RedactionReport) -> (JSONValue, repeated: Int, unwritten: Int) {
        var onOpen: [JSONValue] = []
        var replies: [(when: JSONValue?, send: [JSONValue])] = []
        var current: Int?
        var previous = messages.first?.time
        var repeated = 0, unwritten = 0
        for message in messages {
            let delay = message.time.flatMap { time in previous.map { max(0, (time - $0) * 1000).rounded() } } ?? 0
            previous = message.time ?? previous
            if message.sent {
                let when = self.when(message)
                if let index = replies.firstIndex(where: { $0.when == when }) {
                    repeated += 1
                    // Its answers are the first one's: what follows is not written twice.
                    current = -1 - index
                } else {
                    replies.append((when, []))
                    current = replies.count - 1
                }
                continue
            }
            var item = payload(message, report: &report)
            if delay >= 1, case .object(var members) = item {
                members.append(("delay", .object([("ms", .number(delay))])))
                item = .object(members)
            }
            switch current {
            case nil: onOpen.append(item)
            case let index? where index >= 0: replies[index].send.append(item)
            default: unwritten += 1
            }
        }
        // Replies without `when` answer any message: they go last, so the others are tried first.
        let ordered = replies.filter { $0.when != nil } + replies.filter { $0.when == nil }.prefix(1)
        var members: [(key: String, value: JSONValue)] = []
        if !onOpen.isEmpty { members.append(("onOpen", .array(onOpen))) }
        if !ordered.isEmpty {
            members.append(("replies", .array(ordered.map { reply in
                .object((reply.when.map { [("when", $0)] } ?? []) + [("send", .array(reply.send))])
            })))
        }
        return (.object(members), repeated, unwritten)
    }

    /// How a reply recognises `message`: stable JSON fields, the exact text, or nothing (binary).
    func when(_ message: CapturedMessage) -> JSONValue? {
        guard !message.binary, let text = String(validating: message.bytes, as: UTF8.self) else { return nil }
        if let json = try? JSONParser.parse(message.bytes), case .object(let fields) = json {
            let stable = fields.filter { field in
                guard !policy.isSecret(field.key) else { return false }
                switch field.value {
                case .bool: return true
                case .string(let value): return value.count <= 40 && !SecretPolicy.looksRandom(value)
                default: return false
                }
            }
            return stable.isEmpty ? nil : .object([("body", .object(stable))])
        }
        return .object([("text", .string(text))])
    }

    /// The message as a stub writes it: `json` (secrets out), `text`, or `base64`.
    func payload(_ message: CapturedMessage, report: inout RedactionReport) -> JSONValue {
        if message.binary { return .object([("base64", .string(Data(message.bytes).base64EncodedString()))]) }
        if let json = try? JSONParser.parse(message.bytes), json.isContainer {
            let cleaned = JSONRewriter(policy: policy).rewrite(message.bytes, report: &report, place: "WebSocket message field")
            return .object([("json", (try? JSONParser.parse(cleaned)) ?? json)])
        }
        return .object([("text", .string(String(decoding: message.bytes, as: UTF8.self)))])
    }
}

extension JSONValue {
    /// An object or an array.
    var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
