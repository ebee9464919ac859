#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubSystem

/// What the transport does to open WebSocket conversations when the admin API asks.
package protocol ConversationSteering: Sendable {
    /// Sends `payload` on each conversation of `ids` that is still open.
    func send(_ payload: Conversation.Message.Payload, to ids: [Int])
    /// Closes each conversation of `ids` with `code` and `reason`.
    func close(_ ids: [Int], code: Int, reason: String)
    /// Pushes `payload` as a `next` into subscription `subscription` (every running one when nil)
    /// of each GraphQL socket among `ids`.
    func next(_ payload: JSONValue, subscription: String?, to ids: [Int])
}

/// The record of every WebSocket conversation: open ones and the last ended ones, each with its
/// messages both ways (bounded as the journal bounds bodies). The WebSocket side writes it; the
/// admin API reads it and steers through `ConversationSteering`.
package final class ConversationBook: Sendable {
    /// One message as recorded.
    package struct Message: Sendable {
        /// `in` (from the client) or `out` (from stubd).
        package let direction: String
        package let at: Date
        package let binary: Bool
        /// The whole size in bytes.
        package let size: Int
        /// The first `Limits.journalBodyBytes` bytes.
        package let bytes: [UInt8]
    }

    /// How a conversation ended.
    package struct Ending: Sendable {
        /// The close code, nil when the connection closed without a close frame.
        package let code: Int?
        package let reason: String
        /// `server` (its script or the admin API), `client`, `violation` (stubd failed the
        /// connection), `dropped` (closed without a close frame), `stopped` (stubd stopping).
        package let by: String
        package let at: Date
    }

    /// One conversation.
    package struct Entry: Sendable {
        package let id: Int
        package let route: String
        package let variant: String
        package let path: String
        package let session: String?
        package let subprotocol: String?
        /// The handshake's `Origin`, when the client sent one (browsers do).
        package let origin: String?
        package let opened: Date
        package var messages: [Message] = []
        /// Messages past the last `maxMessages`, not kept.
        package var droppedMessages = 0
        package var ending: Ending?
    }

    /// Messages kept per conversation, the latest ones.
    package static let maxMessages = 200
    /// Ended conversations kept, the latest ones.
    package static let maxEnded = 100

    private struct State {
        var next = 1
        var entries: [Int: Entry] = [:]
        var ended: [Int] = []
        var steering: (any ConversationSteering)?
    }

    private let state = Locked(State())
    /// True when messages are kept verbatim (`--journal-credentials`); otherwise the string
    /// values of secret-named members of JSON text messages are redacted as the journal's are.
    let keepsSecrets: Bool

    package init(keepsSecrets: Bool = false) {
        self.keepsSecrets = keepsSecrets
    }

    /// Lets the admin API reach the open conversations; nil lets go of them (a stopped server).
    package func attach(_ steering: (any ConversationSteering)?) { state.withLock { $0.steering = steering } }

    /// Records a conversation that opened; its id.
    package func opened(_ open: OpenConversation) -> Int {
        state.withLock { state in
            let id = state.next
            state.next += 1
            state.entries[id] = Entry(id: id, route: open.routeID, variant: open.variant, path: open.path, session: open.session,
                                      subprotocol: open.subprotocol, origin: open.origin, opened: Date())
            return id
        }
    }

    /// Records a message of conversation `id`.
    package func message(_ id: Int, incoming: Bool, binary: Bool, _ bytes: [UInt8]) {
        var kept = Array(bytes.prefix(Limits.journalBodyBytes))
        if !binary && !keepsSecrets, let redacted = CredentialRedaction.redactedJSON(kept) { kept = redacted }
        let message = Message(direction: incoming ? "in" : "out", at: Date(), binary: binary, size: bytes.count, bytes: kept)
        state.withLock { state in
            guard state.entries[id]?.ending == nil else { return }
            state.entries[id]?.messages.append(message)
            if let count = state.entries[id]?.messages.count, count > ConversationBook.maxMessages {
                state.entries[id]?.messages.removeFirst()
                state.entries[id]?.droppedMessages += 1
            }
        }
    }

    /// Records how conversation `id` ended (the first ending counts).
    package func ended(_ id: Int, code: Int?, reason: String, by: String) {
        state.withLock { state in
            guard state.entries[id] != nil, state.entries[id]?.ending == nil else { return }
            state.entries[id]?.ending = Ending(code: code, reason: reason, by: by, at: Date())
            state.ended.append(id)
            if state.ended.count > ConversationBook.maxEnded { state.entries[state.ended.removeFirst()] = nil }
        }
    }

    /// The conversations, open first, each list by id; only `route`'s and `session`'s when given.
    package func list(route: String? = nil, session: String? = nil, openOnly: Bool = false) -> [Entry] {
        state.withLock { state in
            state.entries.values.filter { entry in
                (route == nil || entry.route == route) && (session == nil || entry.session == session) && (!openOnly || entry.ending == nil)
            }.sorted { ($0.ending == nil ? 0 : 1, $0.id) < ($1.ending == nil ? 0 : 1, $1.id) }
        }
    }

    /// Conversation `id`, if it is still kept.
    package func entry(_ id: Int) -> Entry? { state.withLock { $0.entries[id] } }

    /// Sends `payload` to the open conversations among `ids`; how many.
    package func send(_ payload: Conversation.Message.Payload, to ids: [Int]) -> Int {
        steer(ids) { $0.send(payload, to: $1) }
    }

    /// Pushes a subscription's `next` into the open conversations among `ids`; how many.
    package func next(_ payload: JSONValue, subscription: String?, to ids: [Int]) -> Int {
        steer(ids) { $0.next(payload, subscription: subscription, to: $1) }
    }

    /// Closes the open conversations among `ids`; how many.
    package func close(_ ids: [Int], code: Int, reason: String) -> Int {
        steer(ids) { $0.close($1, code: code, reason: reason) }
    }

    /// Does `act` to the open conversations among `ids`, outside the lock; how many it reached.
    private func steer(_ ids: [Int], _ act: (any ConversationSteering, [Int]) -> Void) -> Int {
        let (steering, open) = state.withLock { state in
            (state.steering, ids.filter { state.entries[$0] != nil && state.entries[$0]?.ending == nil })
        }
        guard let steering else { return 0 }
        if !open.isEmpty { act(steering, open) }
        return open.count
    }
}
