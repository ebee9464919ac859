internal import CWslay
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The peer's socket: wslay's reads and writes, and the drain after a failed read.
extension WebSocketPeer {
    /// Stops answering: the close is out, and what the client still sends is read and dropped
    /// until it closes, for 2 s at most.
    func startDraining() {
        draining = true
        timers = [(MonotonicClock.now() &+ 2_000_000_000, .giveUp)]
        drain()
    }

    /// Reads and drops what the client sends; closes once it has closed.
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = LibC.read(fd, &scratch, scratch.count)
            if n > 0 { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
            return finish()
        }
    }

    func receive(into buffer: UnsafeMutablePointer<UInt8>?, _ length: Int) -> Int {
        guard let buffer, let context else { return -1 }
        if !inbound.isEmpty {
            let n = min(length, inbound.count)
            inbound.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: n) }
            inbound.removeFirst(n)
            return n
        }
        let n = LibC.read(fd, buffer, length)
        if n > 0 { return n }
        let wouldBlock = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        wslay_event_set_error(context, wouldBlock ? WSLAY_ERR_WOULDBLOCK.rawValue : WSLAY_ERR_CALLBACK_FAILURE.rawValue)
        return -1
    }

    func transmit(_ data: UnsafePointer<UInt8>?, _ length: Int) -> Int {
        guard let context else { return -1 }
        if silent { return length }
        let n: Int
        if let rate = open.conversation.bytesPerSecond {
            // Throttled: a twentieth of a second's bytes at a time, the next write due when
            // those bytes would have taken to go at the rate.
            let now = MonotonicClock.now()
            guard now >= nextWriteNs else {
                wslay_event_set_error(context, WSLAY_ERR_WOULDBLOCK.rawValue)
                return -1
            }
            n = LibC.sendNoSignal(fd, data, min(length, max(1, rate / 20)))
            if n > 0 {
                // The hub wakes for the next part: the socket's room is not asked for meanwhile.
                nextWriteNs = now &+ UInt64(n) * 1_000_000_000 / UInt64(rate)
                if !timers.contains(where: { if case .resume = $0.action { true } else { false } }) { timers.append((nextWriteNs, .resume)) }
            }
        } else {
            n = LibC.sendNoSignal(fd, data, length)
        }
        if n >= 0 { return n }
        let wouldBlock = errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
        wslay_event_set_error(context, wouldBlock ? WSLAY_ERR_WOULDBLOCK.rawValue : WSLAY_ERR_CALLBACK_FAILURE.rawValue)
        return -1
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
        if let context { _ = wslay_event_send(context) }
        silent = true
        draining = true
        drain()
    }

    /// Writes the start of a text frame that announces 64 bytes, 16 of them, then closes the
    /// connection: a message cut mid-frame.
    func cut() {
        guard !finished else { return }
        markEnded(by: "dropped", code: nil, reason: "cut mid-frame")
        if let context { _ = wslay_event_send(context) }
        let partial: [UInt8] = [0x81, 64] + Array("a message cut of".utf8)
        _ = partial.withUnsafeBytes { LibC.sendNoSignal(fd, $0.baseAddress, $0.count) }
        finish()
    }
}
