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

    /// Ends the conversation as the server going away does (1001), for a stopping server.
    func goAway() {
        guard let context, !finished, !ending else { return }
        ending = true
        endedBy = ("stopped", 1001, "server shutting down")
        timers.removeAll()
        let reason = Array("server shutting down".utf8)
        // Refused once a close is queued or sent already: the hub closes every connection after 500 ms anyway.
        _ = wslay_event_queue_close(context, 1001, reason, reason.count)
    }

    /// Ends the conversation now with `code` (1008: the client reads nothing while stubd's queue
    /// for it passes every bound). wslay sends the close ahead of the queued messages; a client
    /// that does not read it is let go after 2 s.
    func overflow(queued: Int) {
        guard let context, !finished, !ending else { return }
        ending = true
        endedBy = ("server", 1008, "outgoing queue over its limit (\(queued) bytes): the client is not reading")
        timers.removeAll()
        let reason = Array("client not reading".utf8)
        // Refused once a close is queued or sent already: the give-up timer below ends it either way.
        _ = wslay_event_queue_close(context, 1008, reason, reason.count)
        timers.push(now &+ 2_000_000_000, .giveUp)
    }

    /// Ends the script and notes who ended the conversation, for the record.
    func markEnded(by: String, code: Int?, reason: String) {
        ending = true
        endedBy = (by, code, reason)
    }
}
