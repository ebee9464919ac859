internal import CWslay
import StubCore

/// How a conversation ends besides its script: idle past the limit, the server stopping, a
/// client that reads nothing while its queue grows.
extension WebSocketPeer {
    /// Ends a conversation quiet for the idle limit with 1001, or looks again when it may be.
    func idleCheck() {
        guard !ending else { return }
        let quietUntil = lastActivityNs &+ limits.idleNs
        guard now >= quietUntil else { return timers.push(quietUntil, .idleCheck) }
        end(Conversation.Ending(code: 1001, reason: "idle timeout"))
    }

    /// Ends the conversation as the server going away does (1001), for a stopping server (the
    /// hub closes every connection after 500 ms).
    func goAway() {
        closeNow(code: 1001, reason: "server shutting down", recorded: ("stopped", "server shutting down"))
    }

    /// Ends the conversation with 1008: the client reads nothing while stubd's queue for it
    /// passes every bound. A client that does not read the close either is let go after 2 s.
    func overflow(queued: Int) {
        guard closeNow(code: 1008, reason: "client not reading",
                       recorded: ("server", "outgoing queue over its limit (\(queued) bytes): the client is not reading")) else { return }
        timers.push(now &+ 2_000_000_000, .giveUp)
    }

    /// Queues a close now, ahead of the queued messages (wslay sends control frames first), and
    /// drops the script's timers; false when the conversation was already ending.
    @discardableResult
    private func closeNow(code: UInt16, reason: String, recorded: (by: String, reason: String)) -> Bool {
        guard let context, !finished, !ending else { return false }
        ending = true
        endedBy = (recorded.by, Int(code), recorded.reason)
        timers.removeAll()
        let bytes = Array(reason.utf8)
        // Refused only once a close is queued or sent already, which `ending` rules out.
        _ = wslay_event_queue_close(context, code, bytes, bytes.count)
        return true
    }

    /// Ends the script and notes who ended the conversation, for the record.
    func markEnded(by: String, code: Int?, reason: String) {
        ending = true
        endedBy = (by, code, reason)
    }
}
