import StubCore
import StubSystem
import StubTransport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The HTTPS port's front: accept, peek at the ClientHello, and send the socket its way.
extension H2Engine {
    /// Accepts every connection waiting on listener `index`.
    func accept(listener index: Int, now: UInt64) {
        guard index < listeners.count else { return }
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { LibC.acceptNonBlocking(listeners[index], $0, &length) }
            }
            guard fd >= 0 else {
                // Out of descriptors, the listener stays readable: listen again in 100 ms rather than spin.
                if errno == EMFILE || errno == ENFILE {
                    for listener in listeners { watch.forget(listener) }
                    _ = ticket(for: .relisten, until: now &+ 100_000_000)
                }
                return
            }
            var client: ClientAddress?
            withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { client = ClientAddress($0) } }
            // The connection limits apply before the hello, as libmicrohttpd's accept policy applied
            // them at accept; and sockets still to say hello are few.
            if stopping || pending.count >= H2Engine.maxPending || !services.admission.admit(client, now: now) {
                LibC.close(fd)
                continue
            }
            let ticket = ticket(for: .hello(fd: fd), until: ConnectionAdmission.due(now, limits.helloTimeoutNs))
            pending[fd] = Pending(listener: index, address: address, length: length, ticket: ticket)
            // On loopback the hello is almost always there already: no wait on the watch.
            peek(fd, now: now)
        }
    }

    /// Reads the start of what the client sent on a pending socket, without taking it: a whole
    /// ClientHello decides where the socket goes; a partial one waits for more.
    func peek(_ fd: Int32, now: UInt64) {
        guard let waiting = pending[fd] else { return }
        var bytes = [UInt8](repeating: 0, count: ClientHelloALPN.largestRecord)
        let count = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK)) }
        let verdict: ClientHelloALPN.Verdict
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            verdict = .needMore
        } else if count <= 0 {
            // The client left, or sent nothing and closed: libmicrohttpd would close it too.
            verdict = .other
        } else {
            verdict = bytes.withUnsafeBytes { ClientHelloALPN.verdict(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
        if verdict == .needMore {
            guard count > 0 else { return watch.watch(fd, token: H2Engine.pendingToken | UInt64(UInt32(bitPattern: fd)), read: true, write: false) }
            // Part of a hello stays readable while peeked (the watch is level-triggered): look
            // again after a pause instead of on every turn.
            watch.forget(fd)
            pending[fd]?.retryNs = min(waiting.retryNs * 2, 50_000_000)
            _ = ticket(for: .peekAgain(fd: fd), until: now &+ waiting.retryNs)
            return
        }
        pending[fd] = nil
        waits[waiting.ticket] = nil
        watch.forget(fd)
        if verdict == .other {
            counts.withLock { $0.handedOff += 1 }
            var address = waiting.address
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { services.handOff(fd, waiting.listener, $0, waiting.length) }
            }
            return
        }
        var address = waiting.address
        let client = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0) } }
        guard let session = identity.session(on: fd) else {
            LibC.close(fd)
            return
        }
        counts.withLock { $0.h2 += 1 }
        try? LibC.setNoDelay(fd)
        if let limit = limits.stalledSendLimitMs { _ = try? LibC.abortStalledSends(fd, afterMs: limit) }
        let admitted = services.admission.opened(fd: fd, address: client, now: now)
        let connection = H2Connection(id: nextConnection, fd: fd, tls: session, engine: self, admitted: admitted)
        nextConnection += 1
        connections[connection.id] = connection
        connection.ready(readable: true, writable: false, now: now)
        settle(connection)
    }
}
