import Foundation
import StubCore
#if canImport(Glibc)
import Glibc
#endif
import StubSystem

/// A plain TCP connection for sending bytes no HTTP client would send.
package final class RawSocket: @unchecked Sendable {
    package let fd: Int32

    /// Connects to `port` on 127.0.0.1; with `receiveBuffer`, the socket's receive buffer is set
    /// to that many bytes first (a client that reads slowly; set after connecting, it shrinks the
    /// window the kernel already offered, and TCP falls back to probing a zero window).
    package init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, LibC.streamSocket, 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = LibC.loopbackAddress(port: port)
        var timeout = LibC.timeval(seconds: 5)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    package func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { LibC.sendNoSignal(fd, $0.baseAddress, $0.count) }
    }

    /// Closes the sending side (a FIN), as a client that has said all it will.
    package func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Everything the server sends until it closes (or `timeoutSeconds` pass without data).
    package func readAll(timeoutSeconds: Double = 5) -> [UInt8] {
        readToEnd(timeoutSeconds: timeoutSeconds).bytes
    }

    /// Everything the server sends, and whether it then closed the connection (end of stream)
    /// rather than falling silent for `timeoutSeconds`.
    package func readToEnd(timeoutSeconds: Double = 5) -> (bytes: [UInt8], closed: Bool) {
        var timeout = LibC.timeval(seconds: timeoutSeconds)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            // A signal (SIGCHLD from the curl and stubd processes other tests start) is not the end.
            if n < 0 && errno == EINTR { continue }
            if n == 0 || (n < 0 && errno == ECONNRESET) { return (out, true) }
            if n < 0 { return (out, false) }
            out += buffer[0..<n]
        }
    }

    /// `readToEnd` on a thread of its own (see `OffPool`).
    package func readUntilClosed(timeoutSeconds: Double = 5) async -> (bytes: [UInt8], closed: Bool) {
        (try? await OffPool.run { self.readToEnd(timeoutSeconds: timeoutSeconds) }) ?? ([], false)
    }

    /// What one read returns: the next bytes, or none at the end or after `timeoutSeconds`.
    package func readSome(timeoutSeconds: Double = 5) -> [UInt8] {
        var timeout = LibC.timeval(seconds: timeoutSeconds)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            return n <= 0 ? [] : Array(buffer[0..<n])
        }
    }

    /// `readAll` on a thread of its own (see `OffPool`).
    package func read(timeoutSeconds: Double = 5) async -> [UInt8] {
        (try? await OffPool.run { self.readAll(timeoutSeconds: timeoutSeconds) }) ?? []
    }

    deinit { close(fd) }
}
