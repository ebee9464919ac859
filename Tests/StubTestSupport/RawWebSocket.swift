import Foundation
import StubSystem
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client on a raw socket, with framing of its own: it sends what a test asks,
/// however hostile (floods, messages and a close in one write, nothing read back), and shows
/// the server's frames exactly as they came.
package final class RawWebSocket: @unchecked Sendable {
    // @unchecked: one test drives it; `flood` runs its writes on its own thread against a
    // socket whose reads happen elsewhere, and the kernel keeps the two apart.
    package let socket: RawSocket
    /// The handshake's status line.
    package let statusLine: String
    private var buffer: [UInt8] = []

    /// Connects and sends a handshake for `path`; `statusLine` says how the server answered.
    package init(port: Int, path: String, extraHeaders: [String] = []) throws {
        socket = try RawSocket(port: port)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let head = (["GET \(path) HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13"] + extraHeaders).joined(separator: "\r\n") + "\r\n\r\n"
        socket.send(Array(head.utf8))
        while true {
            if let end = RawWebSocket.headEnd(buffer) {
                statusLine = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
                buffer.removeFirst(end + 4)
                return
            }
            let more = socket.readSome(timeoutSeconds: 5)
            guard !more.isEmpty else {
                statusLine = String(decoding: buffer, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
                return
            }
            buffer += more
        }
    }

    package var upgraded: Bool { statusLine.hasPrefix("HTTP/1.1 101") }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// One masked client frame.
    package static func frame(_ payload: [UInt8], opcode: UInt8 = 1) -> [UInt8] {
        var out: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: out.append(0x80 | UInt8(payload.count))
        case ..<65536: out += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: out += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        out += mask
        out += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
        return out
    }

    /// A close frame's payload: the code, then the reason.
    package static func closePayload(_ code: Int, _ reason: String = "") -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
    }

    package func send(_ text: String) { socket.send(RawWebSocket.frame(Array(text.utf8))) }

    /// One server frame: its opcode and payload.
    package struct Frame: Sendable {
        package let opcode: UInt8
        package let payload: [UInt8]
        package var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's code, if it carries one.
        package var closeCode: Int? { opcode == 8 && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil }
    }

    /// The next frame, or nil when the connection ends or `timeoutSeconds` pass without one.
    package func next(timeoutSeconds: Double = 5) -> Frame? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            if let frame = parse() { return frame }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            let more = socket.readSome(timeoutSeconds: left)
            guard !more.isEmpty else { return nil }
            buffer += more
        }
    }

    /// The frames until the connection ends or goes quiet for `timeoutSeconds`, and whether it ended.
    package func framesToEnd(timeoutSeconds: Double = 5) -> (frames: [Frame], closed: Bool) {
        var frames: [Frame] = []
        while true {
            if let frame = parse() {
                frames.append(frame)
                continue
            }
            let (more, closed) = readOnce(timeoutSeconds: timeoutSeconds)
            if more.isEmpty { return (frames, closed) }
            buffer += more
        }
    }

    private func readOnce(timeoutSeconds: Double) -> ([UInt8], Bool) {
        var timeout = LibC.timeval(seconds: timeoutSeconds)
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n > 0 { return (Array(chunk[0..<n]), false) }
            return ([], n == 0 || errno == ECONNRESET)
        }
    }

    private func parse() -> Frame? {
        guard buffer.count >= 2 else { return nil }
        var length = Int(buffer[1] & 0x7F), at = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            at = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            at = 10
        }
        guard buffer.count >= at + length else { return nil }
        let frame = Frame(opcode: buffer[0] & 0x0F, payload: Array(buffer[at..<(at + length)]))
        buffer.removeFirst(at + length)
        return frame
    }
}
