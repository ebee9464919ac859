internal import CWslay
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The peer's socket: wslay's reads and writes through a read budget and an outbox, and the drain
/// after a failed read.
extension WebSocketPeer {
    /// Stops answering: the close is out, and what the client still sends is read and dropped
    /// until it closes, for 2 s at most.
    func startDraining() {
        draining = true
        timers.removeAll()
        timers.push(now &+ 2_000_000_000, .giveUp)
        drain()
    }

    /// Reads and drops what the client sends; closes once it has closed. A slice per turn, as
    /// for a conversation's reads.
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        for _ in 0..<4 {
            let n = LibC.read(fd, &scratch, scratch.count)
            if n > 0 { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
            return finish()
        }
    }

    /// wslay asks for bytes: the handshake's leftovers first, then the socket, up to this turn's budget.
    func receive(into buffer: UnsafeMutablePointer<UInt8>?, _ length: Int) -> Int {
        guard let buffer, let context else { return -1 }
        if !inbound.isEmpty {
            let n = min(length, inbound.count)
            inbound.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: n) }
            inbound.removeFirst(n)
            return n
        }
        // The turn's slice is used up: the rest waits in the socket for the next turn, which the
        // level-triggered wait starts at once, after every other ready conversation's.
        guard readBudget > 0 else {
            wslay_event_set_error(context, WSLAY_ERR_WOULDBLOCK.rawValue)
            return -1
        }
        let n = LibC.read(fd, buffer, min(length, readBudget))
        if n > 0 {
            readBudget -= n
            return n
        }
        let wouldBlock = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        wslay_event_set_error(context, wouldBlock ? WSLAY_ERR_WOULDBLOCK.rawValue : WSLAY_ERR_CALLBACK_FAILURE.rawValue)
        return -1
    }

    /// wslay hands over framed bytes: they join the outbox (`writeOutbox` sends them), so that
    /// a frame's head and payload leave in one write.
    func transmit(_ data: UnsafePointer<UInt8>?, _ length: Int) -> Int {
        guard let context, let data else { return -1 }
        if silent { return length }
        let room = WebSocketLimits.outboxBytes - (outbox.count - outboxStart)
        guard room > 0 else {
            wslay_event_set_error(context, WSLAY_ERR_WOULDBLOCK.rawValue)
            return -1
        }
        let n = min(length, room)
        if outboxStart > 0 && outboxStart == outbox.count {
            outbox.removeAll(keepingCapacity: true)
            outboxStart = 0
        }
        outbox.append(contentsOf: UnsafeBufferPointer(start: data, count: n))
        return n
    }

    /// Writes the outbox to the socket as far as it takes it (for a throttled conversation, the
    /// next slice when its time has come). False when the connection failed.
    @discardableResult
    func writeOutbox() -> Bool {
        while outboxStart < outbox.count {
            var length = outbox.count - outboxStart
            if let rate = open.conversation.bytesPerSecond {
                // Throttled: a twentieth of a second's bytes at a time, the next write due when
                // those bytes would have taken to go at the rate.
                guard now >= nextWriteNs else { return true }
                length = min(length, max(1, rate / 20))
            }
            let n = outbox.withUnsafeBytes { LibC.sendNoSignal(fd, $0.baseAddress! + outboxStart, length) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            outboxStart += n
            if let rate = open.conversation.bytesPerSecond {
                nextWriteNs = now &+ UInt64(n) * 1_000_000_000 / UInt64(rate)
                // The hub wakes for the next slice: the socket's room is not asked for meanwhile.
                if !resumeScheduled {
                    resumeScheduled = true
                    timers.push(nextWriteNs, .resume)
                }
                return true
            }
        }
        outbox.removeAll(keepingCapacity: outbox.capacity <= WebSocketLimits.outboxBytes)
        outboxStart = 0
        return true
    }

    /// Sends what is queued, as far as the socket takes it; ends a connection that is done.
    func flush() {
        guard let context, !finished, !draining else { return }
        while true {
            guard writeOutbox() else { return finish() }
            guard outboxStart == outbox.count, wslay_event_want_write(context) != 0 else { break }
            let pending = outbox.count
            if wslay_event_send(context) != 0 { return finish() }
            // wslay gave nothing more (a throttled slice, or nothing it may send yet).
            if outbox.count == pending { break }
        }
        let queueEmpty = wslay_event_get_queued_msg_count(context) == 0 && outboxStart == outbox.count
        if dropAfterQueue {
            if queueEmpty { finish() }
            return
        }
        if let close = closeAfterQueue, queueEmpty {
            closeAfterQueue = nil
            // Refused when the client's close came first (wslay answered it): `end`'s give-up timer ends it either way.
            _ = wslay_event_queue_close(context, close.code, close.reason, close.reason.count)
            return flush()
        }
        guard wslay_event_want_read(context) == 0 && wslay_event_want_write(context) == 0 && outboxStart == outbox.count else { return }
        // wslay stopped reading without the client's close (a message over the limit): what the
        // client still sends is drained, so that the close frame is not lost to a reset.
        if wslay_event_get_close_received(context) == 0 { return startDraining() }
        finish()
    }
}

/// The socket faults of a conversation (`"fault"`).
extension WebSocketPeer {
    /// The server stops answering (no replies, no pongs) but keeps the connection: what the
    /// client sends is read and dropped until it leaves.
    func hang() {
        guard !finished else { return }
        markEnded(by: "client", code: nil, reason: "left a conversation that hung")
        timers.removeAll()
        // What was said before the hang still goes out.
        flush()
        silent = true
        draining = true
        drain()
    }

    /// Writes the start of a text frame that announces 64 bytes, 16 of them, then closes the
    /// connection: a message cut mid-frame.
    func cut() {
        guard !finished else { return }
        markEnded(by: "dropped", code: nil, reason: "cut mid-frame")
        // It only frames into the outbox; what the socket does not take is cut off with the rest.
        if let context { _ = wslay_event_send(context) }
        outbox += [0x81, 64] + Array("a message cut of".utf8)
        writeOutbox()
        finish()
    }
}
