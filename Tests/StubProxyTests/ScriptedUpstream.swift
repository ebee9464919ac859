import Foundation
import StubCore
#if canImport(Glibc)
import Glibc
#endif
import StubSystem

/// A TCP server on a free port that answers each request with bytes a test wrote by hand
/// (chunked bodies, interim answers, early closes, garbage), as no HTTP library would. It
/// records the requests' heads and how many connections it accepted.
final class ScriptedUpstream: @unchecked Sendable {
    // @unchecked: the listener and thread are set in init; the rest is behind `state`.
    /// What to send for one request, and whether to close the connection afterwards.
    struct Answer: Sendable {
        var bytes: [UInt8]
        var close = false
        init(_ text: String, close: Bool = false) {
            bytes = Array(text.utf8)
            self.close = close
        }
    }

    let port: Int
    private let listener: Int32
    private let script: @Sendable (_ head: String) -> Answer
    private let state = Locked<(heads: [String], connections: Int, stopped: Bool)>(([], 0, false))

    init(_ script: @escaping @Sendable (_ head: String) -> Answer) throws {
        self.script = script
        let fd = socket(AF_INET, LibC.streamSocket, 0)
        listener = fd
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = LibC.loopbackAddress(port: 0)
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { LibC.bind(fd, $0, size) == 0 && getsockname(fd, $0, &size) == 0 }
        }
        guard bound, listen(fd, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// `http://127.0.0.1:port`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// The heads of the requests received, in order.
    var heads: [String] { state.withLock { $0.heads } }
    /// Connections accepted so far.
    var connections: Int { state.withLock { $0.connections } }

    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0, !state.withLock({ $0.stopped }) else { return }
            state.withLock { $0.connections += 1 }
            Thread { [self] in serve(fd) }.start()
        }
    }

    /// Answers requests on one connection until the script says close or the peer does.
    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            while ScriptedUpstream.requestEnd(pending) == nil {
                let n = read(fd, &buffer, buffer.count)
                guard n > 0 else { return }
                pending += buffer[..<n]
            }
            let end = ScriptedUpstream.requestEnd(pending)!
            let head = String(decoding: pending.prefix(end), as: UTF8.self)
            pending.removeFirst(end)
            state.withLock { $0.heads.append(head) }
            let answer = script(head)
            _ = answer.bytes.withUnsafeBytes { LibC.sendNoSignal(fd, $0.baseAddress, $0.count) }
            if answer.close { return }
        }
    }

    /// Where the first whole request (head and Content-Length body) in `bytes` ends.
    static func requestEnd(_ bytes: [UInt8]) -> Int? {
        let marker = Array("\r\n\r\n".utf8)
        guard bytes.count >= 4, let at = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == marker }) else { return nil }
        let head = String(decoding: bytes[..<at], as: UTF8.self).lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
        return bytes.count >= at + 4 + length ? at + 4 + length : nil
    }
}
