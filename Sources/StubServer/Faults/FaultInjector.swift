import StubCore

/// Acts below HTTP on a connection's socket to give the client a network failure.
/// After each of these the handler closes the connection.
enum FaultInjector {
    /// `status`, `headers` and `body` are the variant's, for `truncate`'s head and partial body.
    /// A failing socket call ends the fault early: the connection is closed either way.
    static func inject(_ fault: Fault, socket fd: Int32, status: Int, headers: [HTTPHeader], body: [UInt8]) {
        do {
            switch fault {
            case .reset:
                // Dissolving the association makes the kernel answer the peer with RST. SO_LINGER 0
                // alone is not enough: MHD shuts down the write side first, which sends a FIN.
                var option = linger(l_onoff: 1, l_linger: 0)
                try SystemCall.run("setsockopt SO_LINGER") { setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size)) }
                try LibC.dissolveConnection(fd)
            case .empty, .hang:
                break
            case .garbage:
                var rng = SystemRandomNumberGenerator()
                // Not starting with "HTTP/" so no client mistakes it for a response head.
                var bytes: [UInt8] = [0x00, 0xFF, 0x13, 0x37]
                bytes += (0..<508).map { _ in UInt8.random(in: 0...255, using: &rng) }
                try sendAll(fd, bytes)
            case .truncate:
                try sendAll(fd, truncatedResponse(status: status, headers: headers, body: body))
            }
        } catch {
            // The client is gone or the socket is broken: nothing more to break.
        }
    }

    /// The variant's head with a Content-Length larger than the body, and half the body.
    static func truncatedResponse(status: Int, headers: [HTTPHeader], body: [UInt8]) -> [UInt8] {
        let code = status == 0 ? 200 : status
        var head = "HTTP/1.1 \(code) \(HTTPStatusText.reason(code))\r\n"
        for h in truncatedHeaders(headers) { head += "\(h.name): \(h.value)\r\n" }
        head += "Content-Length: \(promisedLength(of: body))\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + sentPart(of: body)
    }

    /// The Content-Length a truncated response promises: more than it sends, by at least 100.
    static func promisedLength(of body: [UInt8]) -> Int { max(body.count * 2, body.count + 100) }

    /// The part of the body a truncated response sends: the first half (at least one byte).
    static func sentPart(of body: [UInt8]) -> [UInt8] { Array(body.prefix(max(1, body.count / 2))) }

    /// The variant's headers a truncated response keeps (the length and connection are its own).
    static func truncatedHeaders(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        headers.filter { !["content-length", "connection"].contains($0.name.lowercased()) }
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            offset += try bytes.withUnsafeBytes { raw in
                Result { () throws(SystemCallError) in
                    try SystemCall.run("send") { LibC.sendNoSignal(fd, raw.baseAddress! + offset, raw.count - offset) }
                }
            }.get()
        }
    }
}
