#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a variant's `conversation` and a route's `websocket`, naming the place of every problem.
struct ConversationReader {
    let reader: ValueReader
    /// The route's folder, where a message's `file` is read.
    var folder = (path: "", relative: "")

    /// A message's own file: `<name>.message.<ext>` in the route folder (not a variant's body).
    static func isMessageFile(_ name: String) -> Bool {
        PathText.deletingPathExtension(name).lowercased().hasSuffix(".message")
    }

    /// `{"subprotocols": ["chat.v1"]}`, all keys optional.
    func endpoint(_ value: JSONValue, at path: String) -> WebSocketEndpoint? {
        guard let members = reader.object(value, at: path, allowed: ["subprotocols"]) else { return nil }
        var subprotocols: [String] = []
        for (key, list) in members {
            let p = ValueReader.join(path, key)
            guard case .array(let items) = list else {
                reader.fail(p, "expected an array of subprotocol names, found \(list.kindDescription)")
                continue
            }
            for (i, item) in items.enumerated() {
                guard let name = reader.string(item, at: "\(p)[\(i)]") else { continue }
                guard !name.isEmpty, name.allSatisfy(ConversationReader.isTokenCharacter) else {
                    reader.fail("\(p)[\(i)]", "expected a token (letters, digits and !#$%&'*+-.^_`|~), found \"\(name)\"")
                    continue
                }
                subprotocols.append(name)
            }
        }
        return WebSocketEndpoint(subprotocols: subprotocols)
    }

    /// `{"onOpen": [...], "replies": [...], "close": {...}}`, all keys optional.
    func conversation(_ value: JSONValue, at path: String) -> Conversation? {
        guard let members = reader.object(value, at: path, allowed: ["onOpen", "replies", "close", "fault", "throttle", "ping"]) else { return nil }
        var onOpen: [Conversation.Message] = [], replies: [Conversation.Reply] = [], ending: Conversation.Ending?
        var fault: Conversation.SocketFault?, bytesPerSecond: Int?, pingEveryMs: Int?
        for (key, v) in members {
            let p = ValueReader.join(path, key)
            switch key {
            case "onOpen":
                onOpen = messages(v, at: p)
                if onOpen.contains(where: { $0.payload == .echo }) { reader.fail(p, "expected echo only in a reply's send: on open there is nothing to echo") }
            case "fault": fault = socketFault(v, at: p)
            case "throttle": bytesPerSecond = reader.throttle(v, at: p)
            case "ping": pingEveryMs = pingInterval(v, at: p)
            case "replies":
                guard case .array(let items) = v else {
                    reader.fail(p, "expected an array of replies like {\"when\": {\"text\": \"ping\"}, \"send\": [{\"text\": \"pong\"}]}, found \(v.kindDescription)")
                    continue
                }
                replies = items.enumerated().compactMap { reply($1, at: "\(p)[\($0)]") }
            default: ending = self.ending(v, at: p, timed: true)
            }
        }
        var conversation = Conversation(onOpen: onOpen, replies: replies, ending: ending, fault: fault, bytesPerSecond: bytesPerSecond)
        conversation.pingEveryMs = pingEveryMs
        return conversation
    }

    private func reply(_ value: JSONValue, at path: String) -> Conversation.Reply? {
        guard let members = reader.object(value, at: path, allowed: ["when", "send", "close"]) else { return nil }
        var condition: MessageCondition?, send: [Conversation.Message] = [], close: Conversation.Ending?
        for (key, v) in members {
            let p = ValueReader.join(path, key)
            switch key {
            case "when": condition = self.condition(v, at: p)
            case "send": send = messages(v, at: p)
            default: close = ending(v, at: p, timed: false)
            }
        }
        return Conversation.Reply(condition: condition, send: send, close: close)
    }

    private func condition(_ value: JSONValue, at path: String) -> MessageCondition? {
        guard let members = reader.object(value, at: path, allowed: ["text", "matches", "body"]) else { return nil }
        var text: String?, matches: String?, body: [String: String] = [:]
        for (key, v) in members {
            let p = ValueReader.join(path, key)
            switch key {
            case "text": text = reader.string(v, at: p)
            case "matches":
                guard let pattern = reader.string(v, at: p) else { continue }
                do { _ = try Regex(pattern) } catch {
                    reader.fail(p, "expected a regular expression, found \"\(pattern)\" (\(error))")
                    continue
                }
                matches = pattern
            default: body = Dictionary(reader.stringMap(v, at: p) ?? [], uniquingKeysWith: { a, _ in a })
            }
        }
        return MessageCondition(text: text, matches: matches, body: body)
    }

    /// An array of messages: `{"text": "hi"}`, `{"json": {...}}` or `{"base64": "AAE="}`, each
    /// with an optional `delay` object.
    private func messages(_ value: JSONValue, at path: String) -> [Conversation.Message] {
        guard case .array(let items) = value else {
            reader.fail(path, "expected an array of messages like {\"text\": \"hello\"}, found \(value.kindDescription)")
            return []
        }
        return items.enumerated().compactMap { message($1, at: "\(path)[\($0)]") }
    }

    private func message(_ value: JSONValue, at path: String) -> Conversation.Message? {
        guard let members = reader.object(value, at: path, allowed: ["text", "json", "base64", "file", "echo", "delay", "template"]) else { return nil }
        var payload: Conversation.Message.Payload?, delay: DelaySpec?, templated = false
        for (key, v) in members {
            let p = ValueReader.join(path, key)
            switch key {
            case "delay": delay = reader.delay(v, at: p)
            case "template":
                guard case .bool(let flag) = v else { reader.fail(p, "expected true or false, found \(v.kindDescription)"); continue }
                templated = flag
            case _ where payload != nil: reader.fail(p, "expected one of text, json, base64, file or echo in a message, found a second")
            case "echo":
                guard case .bool(true) = v else { reader.fail(p, "expected true (the client's message, sent back)"); continue }
                payload = .echo
            case "text": payload = reader.string(v, at: p).map { .text($0) }
            case "json": payload = .text(v.serialized(pretty: false))
            case "file": payload = reader.string(v, at: p).flatMap { messageFile($0, at: p) }
            default:
                guard let text = reader.string(v, at: p) else { continue }
                guard let bytes = Data(base64Encoded: text) else {
                    reader.fail(p, "expected base64 bytes, found \"\(text.prefix(40))\"")
                    continue
                }
                payload = .binary(Array(bytes))
            }
        }
        guard let payload else {
            if !members.contains(where: { ["text", "json", "base64", "file", "echo"].contains($0.key) }) {
                reader.fail(path, "expected a message: {\"text\": \"…\"}, {\"json\": …}, {\"base64\": \"…\"}, {\"file\": \"…\"} or {\"echo\": true}")
            }
            return nil
        }
        var message = Conversation.Message(payload: payload, delay: delay)
        if templated {
            // Placeholders in a json message sit inside its strings: values are escaped as JSON.
            guard case .text(let text) = payload else {
                reader.fail(ValueReader.join(path, "template"), "expected a template only on a text or json message")
                return message
            }
            switch ResponseTemplate.parse(Array(text.utf8), escapesJSON: members.contains { $0.key == "json" }) {
            case .success(let template): message.template = template
            case .failure(let error): reader.fail(ValueReader.join(path, "template"), error.message)
            }
        }
        return message
    }

    /// `{"code": 1000, "reason": "bye", "drop": false}`, with `afterMessages` and `afterMs` when
    /// `timed` (the conversation's own ending, not a reply's).
    private func ending(_ value: JSONValue, at path: String, timed: Bool) -> Conversation.Ending? {
        let allowed = ["code", "reason", "drop"] + (timed ? ["afterMessages", "afterMs"] : [])
        guard let members = reader.object(value, at: path, allowed: allowed) else { return nil }
        var code = 1000, reason = "", drop = false, afterMessages: Int?, afterMs: Int?
        for (key, v) in members {
            let p = ValueReader.join(path, key)
            switch key {
            case "code":
                guard let c = reader.int(v, at: p, in: 1000...4999) else { continue }
                // Codes a peer may send (RFC 6455 §7.4): not 1004-1006 or 1015, which only report.
                guard ConversationReader.sendableCode(c) else {
                    reader.fail(p, "expected a close code a server may send (1000-1003, 1007-1014, 3000-4999), found \(c)")
                    continue
                }
                code = c
            case "reason":
                guard let r = reader.string(v, at: p) else { continue }
                // A close frame's payload is at most 125 bytes, 2 of them the code.
                guard r.utf8.count <= 123 else {
                    reader.fail(p, "expected a reason of at most 123 bytes (a close frame holds 125), found \(r.utf8.count)")
                    continue
                }
                reason = r
            case "drop":
                guard case .bool(let flag) = v else { reader.fail(p, "expected true or false, found \(v.kindDescription)"); continue }
                drop = flag
            case "afterMessages": afterMessages = reader.int(v, at: p, in: 0...1_000_000)
            default: afterMs = reader.int(v, at: p, in: 0...Limits.maxDelayMs)
            }
        }
        if timed && afterMessages == nil && afterMs == nil {
            reader.fail(path, "expected afterMessages or afterMs: when the server ends the conversation")
        }
        return Conversation.Ending(code: code, reason: reason, drop: drop, afterMessages: afterMessages, afterMs: afterMs)
    }

    /// An RFC 9110 token character: a subprotocol name is a token.
    static func isTokenCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || "!#$%&'*+-.^_`|~".contains(c))
    }

    /// True for a close code an endpoint may put in a close frame.
    package static func sendableCode(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    /// `{"file": "frame.message.bin"}`: the bytes of a file beside route.json, as a binary message
    /// (a text one for `.txt` and `.json`).
    private func messageFile(_ name: String, at path: String) -> Conversation.Message.Payload? {
        guard !name.contains("/"), !name.hasPrefix("."), ConversationReader.isMessageFile(name) else {
            reader.fail(path, "expected a file beside route.json named <name>.message.<ext> (like frame.message.bin), found \"\(name)\"")
            return nil
        }
        switch StubFiles.read(PathText.join(folder.path, name)) {
        case .failure(let error):
            reader.fail(path, "\(folder.relative)/\(name): \(error.description)")
            return nil
        case .success(let bytes):
            if ["txt", "json"].contains(PathText.pathExtension(name).lowercased()) {
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    reader.fail(path, "\(folder.relative)/\(name): expected UTF-8 text in a .\(PathText.pathExtension(name)) message file")
                    return nil
                }
                return .text(text)
            }
            return .binary(bytes)
        }
    }
}
