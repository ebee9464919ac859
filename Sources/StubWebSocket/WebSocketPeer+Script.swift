internal import CWslay
import StubCore
import StubSystem

/// The scripted conversation: what is sent when, the replies to the client's messages, and the
/// server's close.
extension WebSocketPeer {
    /// Schedules `messages` one after another from `start`, then `then` after the last; an echo
    /// sends back `echoing`, the client's message (opcode and bytes) being answered.
    func schedule(_ messages: [Conversation.Message], from start: UInt64, then: Conversation.Ending?,
                  echoing: (opcode: UInt8, bytes: [UInt8])? = nil) {
        var at = start
        for message in messages {
            at &+= UInt64(message.delay?.sample() ?? 0) * 1_000_000
            var payload = message.payload
            if let template = message.template { payload = .text(open.render(template, answering: echoing?.bytes)) }
            if payload == .echo, let echoing {
                payload = echoing.opcode == 1 ? .text(String(decoding: echoing.bytes, as: UTF8.self)) : .binary(echoing.bytes)
            }
            timers.push(at, .send(payload))
            lastSendDue = max(lastSendDue, at)
        }
        if let then { timers.push(at, .end(then)) }
    }

    /// wslay read a whole message or control frame from the client.
    func message(opcode: UInt8, _ bytes: [UInt8], closeCode: Int) {
        guard let context else { return }
        lastActivityNs = now
        if opcode == 8 && endedBy == nil && wslay_event_get_close_sent(context) == 0 {
            endedBy = ("client", closeCode == 0 ? nil : closeCode, String(decoding: bytes.dropFirst(2), as: UTF8.self))
        }
        guard opcode == 1 || opcode == 2, !ending else { return }
        var text: String?
        if opcode == 1 {
            // RFC 6455 §8.1: a text message that is not UTF-8 fails the connection with 1007.
            guard let valid = String(validating: bytes, as: UTF8.self) else {
                ending = true
                endedBy = ("violation", 1007, "text message is not UTF-8")
                let reason = Array("text message is not UTF-8".utf8)
                // Refused once a close is queued or writing stopped, which end the conversation at the next flush anyway.
                _ = wslay_event_queue_close(context, 1007, reason, reason.count)
                return
            }
            text = valid
        }
        book.message(id, incoming: true, binary: opcode == 2, bytes)
        received += 1
        if graphQL != nil {
            graphQLMessage(text)
        } else {
            let reply = open.conversation.reply(to: bytes, text: text)
            schedule(reply?.send ?? [], from: now, then: reply?.close, echoing: (opcode, bytes))
            let last = max(lastSendDue, now)
            if let fault = open.conversation.fault, fault.afterMessages == received {
                // A hang with nothing left to say starts now: a ping read with this message gets no pong.
                if fault.kind == .hang && (reply?.send ?? []).isEmpty { silent = true }
                timers.push(last, .fault(fault.kind))
            }
            if let ending = open.conversation.ending, ending.afterMessages == received { timers.push(last, .end(ending)) }
        }
        // What is due now is queued now, inside the read, and framed into the outbox: a close
        // frame that came in the same read is answered by wslay at once, ahead of any message
        // still in its queue, and nothing is sent after a close.
        fire(duringRead: true)
        // It only frames into the outbox (`transmit` never fails): the socket's errors show at the hub's flush.
        if wslay_event_want_write(context) != 0 { _ = wslay_event_send(context) }
    }

    /// Queues one message (the script's, or one the admin API pushes).
    func send(_ payload: Conversation.Message.Payload) {
        guard let context, !ending, !finished else { return }
        let (opcode, bytes): (UInt8, [UInt8])
        switch payload {
        case .text(let text): (opcode, bytes) = (1, Array(text.utf8))
        case .binary(let data): (opcode, bytes) = (2, data)
        case .echo: return
        }
        if queue(opcode: opcode, bytes, on: context) {
            lastActivityNs = now
            book.message(id, incoming: false, binary: opcode == 2, bytes)
        }
    }

    /// Hands one message (or control frame) to wslay; true when it took it.
    private func queue(opcode: UInt8, _ bytes: [UInt8], on context: OpaquePointer) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var message = wslay_event_msg(opcode: opcode, msg: buffer.baseAddress, msg_length: buffer.count)
            return wslay_event_queue_msg(context, &message) == 0
        }
    }

    /// Ends the conversation as `how` says (the script's close, or one the admin API asks for).
    /// Either way, what was queued before goes out first.
    func end(_ how: Conversation.Ending) {
        guard !ending, !finished else { return }
        ending = true
        endedBy = how.drop ? ("dropped", nil, "closed without a close frame") : ("server", how.code, how.reason)
        if how.drop {
            dropAfterQueue = true
        } else {
            closeAfterQueue = (UInt16(how.code), Array(how.reason.utf8))
        }
        // A client that never answers the close (or never reads what is queued) is let go after
        // 2 s (RFC 6455 §7.1.1 leaves the wait open).
        timers.push(now &+ 2_000_000_000, .giveUp)
    }

    /// Sends a ping (its payload the time, for the record) and schedules the next one.
    func ping() {
        guard let context, !ending, !finished, let every = open.conversation.pingEveryMs else { return }
        // Refused once a close is queued or writing stopped (no ping matters then), or without memory (the next one is due).
        _ = queue(opcode: 9, Array("stubd \(now / 1_000_000)".utf8), on: context)
        timers.push(now &+ UInt64(every) * 1_000_000, .ping)
    }
}
