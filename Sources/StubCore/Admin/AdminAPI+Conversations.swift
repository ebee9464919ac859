#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/__stubd/conversations`: the WebSocket conversations, open and recently ended, with their
/// messages; and messages pushed into open ones, or closes, from outside. Under a session's
/// prefix (`/__session/<id>/__stubd/…`) only that session's conversations are seen and steered.
extension AdminAPI {
    func conversations(_ request: StubRequest, parts: [String], session: String?) -> Reply {
        let book = control.conversations
        // /conversations, /conversations/send, /conversations/close
        if parts.count == 1 {
            guard request.method == "GET" else { return notAllowed(["GET"]) }
            let open = request.queryValue("open") == "true"
            let list = book.list(route: request.queryValue("route"), session: session ?? request.queryValue("session"), openOnly: open)
            return .json(200, .object([("conversations", .array(list.map { summary($0) }))]))
        }
        if parts.count == 2, let verb = Verb(rawValue: parts[1]) {
            guard request.method == "POST" else { return notAllowed(["POST"]) }
            return steer(verb, ids: nil, request: request, session: session)
        }
        guard let id = Int(parts[1]), let entry = book.entry(id), session == nil || entry.session == session else {
            return .error(404, "no such conversation", [("id", .string(parts[1])), ("hint", .string("GET /__stubd/conversations lists them"))])
        }
        if parts.count == 2 {
            guard request.method == "GET" else { return notAllowed(["GET"]) }
            return .json(200, .object(summaryMembers(entry) + [("messages", .array(entry.messages.map(message)))]))
        }
        guard parts.count == 3, let verb = Verb(rawValue: parts[2]) else {
            return .error(404, "unknown admin endpoint", [("path", .string(request.path)), ("endpoints", .array(AdminAPI.endpoints.map { .string($0) }))])
        }
        guard request.method == "POST" else { return notAllowed(["POST"]) }
        return steer(verb, ids: [id], request: request, session: session)
    }

    private enum Verb: String { case send, close }

    /// Sends a message to, or closes, conversation `ids`, or the open ones the body's `route` and
    /// `session` pick (all open ones without either).
    private func steer(_ verb: Verb, ids: [Int]?, request: StubRequest, session: String?) -> Reply {
        let json: JSONValue
        do { json = request.body.isEmpty ? .object([]) : try JSONParser.parse(request.body) } catch {
            return .error(400, "invalid JSON", [("line", .number(Double(error.line))), ("message", .string(error.message))])
        }
        let log = ProblemLog()
        let reader = ValueReader(file: "request body", log: log)
        let pick = ids == nil ? ["route", "session"] : []
        let allowed = pick + (verb == .send ? ["text", "json", "base64", "next", "subscription"] : ["code", "reason"])
        let members = reader.object(json, at: "", allowed: allowed) ?? []
        var route: String?, named: String?, code = 1000, reason = ""
        var payload: Conversation.Message.Payload?
        var next: JSONValue?, subscription: String?
        for (key, value) in members {
            switch key {
            case "route": route = reader.string(value, at: key)
            case "session": named = reader.string(value, at: key)
            case "text": payload = reader.string(value, at: key).map { .text($0) }
            case "json": payload = .text(value.serialized(pretty: false))
            case "base64":
                guard let text = reader.string(value, at: key) else { continue }
                guard let data = Data(base64Encoded: text) else { reader.fail(key, "expected base64 bytes"); continue }
                payload = .binary(Array(data))
            case "next":
                guard case .object = value else { reader.fail(key, "expected a next payload like {\"data\": {…}}, found \(value.kindDescription)"); continue }
                next = value
            case "subscription": subscription = reader.string(value, at: key)
            case "code":
                guard let c = reader.int(value, at: key, in: 1000...4999) else { continue }
                if ConversationReader.sendableCode(c) { code = c } else {
                    reader.fail(key, "expected a close code a server may send (1000-1003, 1007-1014, 3000-4999), found \(c)")
                }
            default: reason = reader.string(value, at: key) ?? ""
            }
        }
        if verb == .send && payload == nil && next == nil && log.problems.isEmpty {
            reader.fail("", "expected a message: {\"text\": \"…\"}, {\"json\": …}, {\"base64\": \"…\"}, or a subscription's {\"next\": {\"data\": …}}")
        }
        if reason.utf8.count > 123 { reader.fail("reason", "expected at most 123 bytes") }
        guard log.problems.isEmpty else {
            return .error(400, "invalid \(verb.rawValue)", [("problems", .array(log.problems.map { .string($0.description) }))])
        }
        let targets = ids ?? control.conversations.list(route: route, session: session ?? named, openOnly: true).map(\.id)
        let reached: Int
        if let next {
            reached = control.conversations.next(next, subscription: subscription, to: targets)
        } else if let payload {
            reached = control.conversations.send(payload, to: targets)
        } else {
            reached = control.conversations.close(targets, code: code, reason: reason)
        }
        if let ids, reached == 0 {
            return .error(409, "the conversation has ended", [("id", .number(Double(ids[0])))])
        }
        return .json(200, .object([(verb == .send ? "sent" : "closed", .number(Double(reached)))]))
    }

    private func summary(_ entry: ConversationBook.Entry) -> JSONValue { .object(summaryMembers(entry)) }

    private func summaryMembers(_ entry: ConversationBook.Entry) -> [(key: String, value: JSONValue)] {
        let incoming = entry.messages.filter { $0.direction == "in" }.count
        var members: [(key: String, value: JSONValue)] = [
            ("id", .number(Double(entry.id))), ("route", .string(entry.route)), ("variant", .string(entry.variant)),
            ("path", .string(entry.path)), ("session", entry.session.map { .string($0) } ?? .null),
            ("subprotocol", entry.subprotocol.map { .string($0) } ?? .null), ("origin", entry.origin.map { .string($0) } ?? .null),
            ("opened", .string(ISO8601.format(entry.opened))),
            ("state", .string(entry.ending == nil ? "open" : "ended")),
            ("messagesIn", .number(Double(incoming))), ("messagesOut", .number(Double(entry.messages.count - incoming))),
            ("messagesNotKept", .number(Double(entry.droppedMessages))),
        ]
        if let ending = entry.ending {
            members.append(("ending", .object([
                ("by", .string(ending.by)), ("code", ending.code.map { .number(Double($0)) } ?? .null),
                ("reason", .string(ending.reason)), ("at", .string(ISO8601.format(ending.at))),
            ])))
        }
        return members
    }

    private func message(_ message: ConversationBook.Message) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("direction", .string(message.direction)), ("at", .string(ISO8601.format(message.at))),
            ("type", .string(message.binary ? "binary" : "text")), ("size", .number(Double(message.size))),
        ]
        if !message.binary, let text = String(validating: message.bytes, as: UTF8.self) {
            members.append(("text", .string(text)))
        } else {
            members.append(("base64", .string(Data(message.bytes).base64EncodedString())))
        }
        if message.bytes.count < message.size { members.append(("truncated", .bool(true))) }
        return .object(members)
    }
}
