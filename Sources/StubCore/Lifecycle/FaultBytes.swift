/// The bytes of the faults that write below HTTP: random non-HTTP bytes, a response promising
/// more body than it sends, and a response head as `slow-headers` trickles it.
package enum FaultBytes {
    /// 512 random bytes that do not start with `HTTP/`, so no client takes them for a head.
    package static func garbage() -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        return [0x00, 0xFF, 0x13, 0x37] + (0..<508).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// The variant's head with a Content-Length larger than the body, and half the body.
    package static func truncatedResponse(status: Int, headers: [HTTPHeader], body: [UInt8]) -> [UInt8] {
        head(status: status, headers: truncatedHeaders(headers), contentLength: promisedLength(of: body)) + sentPart(of: body)
    }

    /// The Content-Length a truncated response promises: more than it sends, by at least 100.
    package static func promisedLength(of body: [UInt8]) -> Int { max(body.count * 2, body.count + 100) }

    /// The part of the body a truncated response sends: the first half (at least one byte).
    package static func sentPart(of body: [UInt8]) -> [UInt8] { Array(body.prefix(max(1, body.count / 2))) }

    /// The variant's headers a fault's own head keeps (the length and connection are its own).
    package static func truncatedHeaders(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        headers.filter { !["content-length", "connection"].contains($0.name.lowercased()) }
    }

    /// An HTTP/1.1 head with `headers`, the length given, and `Connection: close`.
    package static func head(status: Int, headers: [HTTPHeader], contentLength: Int) -> [UInt8] {
        let code = status == 0 ? 200 : status
        var text = "HTTP/1.1 \(code) \(HTTPStatusText.reason(code))\r\n"
        for h in headers { text += "\(h.name): \(h.value)\r\n" }
        text += "Content-Length: \(contentLength)\r\nConnection: close\r\n\r\n"
        return Array(text.utf8)
    }
}
