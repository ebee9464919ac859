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
        let n = LibC.sendNoSignal(fd, data, length)
        if n >= 0 { return n }
        let wouldBlock = errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
        wslay_event_set_error(context, wouldBlock ? WSLAY_ERR_WOULDBLOCK.rawValue : WSLAY_ERR_CALLBACK_FAILURE.rawValue)
        return -1
    }
}
