/// A conversation's options on the socket: how it fails, and the server's pings.
extension ConversationReader {
    /// `{"kind": "hang" | "cut", "afterMessages": N, "afterMs": T}`: one of the two at least.
    func socketFault(_ value: JSONValue, at path: String) -> Conversation.SocketFault? {
        guard let members = reader.object(value, at: path, allowed: ["kind", "afterMessages", "afterMs"]) else { return nil }
        var kind: Conversation.SocketFault.Kind?, afterMessages: Int?, afterMs: Int?
        for (key, v) in members {
            let p = ValueReader.join(path, key)
            switch key {
            case "kind":
                guard let name = reader.string(v, at: p) else { continue }
                kind = Conversation.SocketFault.Kind(rawValue: name)
                if kind == nil { reader.fail(p, "expected one of \(Conversation.SocketFault.Kind.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(name)\"") }
            case "afterMessages": afterMessages = reader.int(v, at: p, in: 0...1_000_000)
            default: afterMs = reader.int(v, at: p, in: 0...Limits.maxDelayMs)
            }
        }
        if !members.contains(where: { $0.key == "kind" }) { reader.fail(path, "expected a kind: hang or cut") }
        if afterMessages == nil && afterMs == nil && !members.contains(where: { $0.key.hasPrefix("after") }) {
            reader.fail(path, "expected afterMessages or afterMs: when the socket fails")
        }
        return kind.map { Conversation.SocketFault(kind: $0, afterMessages: afterMessages, afterMs: afterMs) }
    }

    /// `{"everyMs": 30000}`: the server pings the client this often (at least every 10 ms).
    func pingInterval(_ value: JSONValue, at path: String) -> Int? {
        guard let members = reader.object(value, at: path, allowed: ["everyMs"]) else { return nil }
        guard let every = members.first?.value else {
            reader.fail(path, "expected {\"everyMs\": N}: how often the server pings")
            return nil
        }
        return reader.int(every, at: ValueReader.join(path, "everyMs"), in: 10...Limits.maxDelayMs)
    }
}
